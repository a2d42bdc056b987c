/**
 * Writing servers into a configuration file: the one module `mcpx registry
 * add --write` and `mcpx import --write` share. Each server becomes a new key
 * of `mcpServers`, inserted with jsonc-parser's edit API so the rest of the
 * file — its comments, its key order, its indentation — is left as the
 * person wrote it. A name the file already has (or whose namespace a server
 * there already takes) is never overwritten: it is skipped with its reason.
 *
 * Source: spec 000, "Finding servers that are not configured yet" (`--write`
 * puts it in the configuration file); issue 15 (the diff is printed, nothing
 * is overwritten); decisions 0054 and 0055.
 *
 * @module
 */

import { applyEdits, type FormattingOptions, modify, parse, type ParseError } from "jsonc-parser";
import { createTwoFilesPatch } from "diff";
import { ConfigError } from "../core/errors.ts";
import { UnsafeDirectoryError, writeSecretFile } from "../core/private_fs.ts";
import { isIdentifier, toIdentifier } from "./identifiers.ts";
import { describeValue } from "./_describe.ts";

/** One server to add: its key under `mcpServers` and its entry. */
export interface NewServer {
  name: string;
  entry: Record<string, unknown>;
  /** Where it comes from (`cursor /home/me/.cursor/mcp.json`), for messages. */
  from?: string;
}

/**
 * Names and namespaces taken by something other than the file's
 * `mcpServers` (a declared adapter or API, config/derived_servers.ts): the
 * name → who holds it (`adapter "gitx" in /p/adapters.json`).
 */
export type ReservedNames = ReadonlyMap<string, string>;

/** A server left out, and why (its name or namespace is taken). */
export interface SkippedServer {
  name: string;
  reason: string;
}

/** What {@link addServers} made of a file's text. */
export interface ServerEdit {
  /** The new text (the old one when nothing was added). */
  text: string;
  /** Names added, in order. */
  added: string[];
  skipped: SkippedServer[];
}

/**
 * The namespace a `mcpServers` entry takes: its `mcpx.namespace` when that is
 * an identifier, else its key made one (config/identifiers.ts).
 */
function namespaceOf(name: string, entry: unknown): string {
  const block = (entry as { mcpx?: { namespace?: unknown } } | null)?.mcpx;
  const ns = block?.namespace;
  return typeof ns === "string" && isIdentifier(ns) ? ns : toIdentifier(name);
}

/** The indentation a document uses: its first indented line's, else two spaces. */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  return indent.startsWith("\t")
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

/**
 * Adds servers to a configuration file's text, keeping everything else as
 * written. A server whose name the file has, or whose namespace an entry
 * there (or one added before it) takes, is skipped, never overwritten; so is
 * one whose name or namespace is `reserved` (a declared adapter's or API's,
 * which would clash with it once written).
 *
 * @param text The file's text (JSON with comments); empty means a new file.
 * @param servers What to add, in order.
 * @param file The file's path, for error messages.
 * @param reserved Names and namespaces held outside `mcpServers` ({@link ReservedNames}).
 * @returns The new text, the names added and those skipped.
 * @throws {ConfigError} When the text is not JSON with comments, or its
 *   top level or its `mcpServers` is not an object (the file is left alone).
 * @example
 * ```ts
 * import { addServers } from "./server_write.ts";
 * const r = addServers('{\n  // mine\n  "mcpServers": {}\n}\n', [
 *   { name: "fs", entry: { command: "npx", args: ["-y", "fs-server@1.0.0"] } },
 * ], "/p/.mcpx.json");
 * if (!r.text.includes("// mine") || r.added[0] !== "fs") throw new Error();
 * ```
 */
export function addServers(
  text: string,
  servers: readonly NewServer[],
  file: string,
  reserved: ReservedNames = new Map(),
): ServerEdit {
  let current = text.trim() === "" ? "{}\n" : text;
  const errors: ParseError[] = [];
  const document = parse(current, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    throw new ConfigError(
      file,
      "",
      `is not JSON with comments (at offset ${errors[0].offset}); fix the file, or check it with ` +
        "`mcpx config`, before adding servers to it",
    );
  }
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    throw new ConfigError(file, "", `must hold an object, got ${describeValue(document)}`);
  }
  const existing = (document as { mcpServers?: unknown }).mcpServers;
  if (
    existing !== undefined && (existing === null || typeof existing !== "object" ||
      Array.isArray(existing))
  ) {
    throw new ConfigError(
      file,
      "mcpServers",
      `must be an object, got ${describeValue(existing)}; fix it before adding servers`,
    );
  }
  const names = new Set<string>();
  const namespaces = new Map<string, string>();
  for (const [name, entry] of Object.entries((existing ?? {}) as Record<string, unknown>)) {
    names.add(name);
    namespaces.set(namespaceOf(name, entry), name);
  }
  const formatting = formattingOf(current);
  const added: string[] = [];
  const skipped: SkippedServer[] = [];
  // Servers added before, in this batch: a clash with one is not the file's.
  const batch = new Map<string, NewServer>();
  const earlier = (name: string) => {
    const first = batch.get(name)!;
    return `the server "${first.name}"${first.from ? ` from ${first.from}` : ""}, added before it`;
  };
  for (const server of servers) {
    const { name, entry } = server;
    const ns = namespaceOf(name, entry);
    const holder = reserved.get(name) ?? reserved.get(ns);
    if (holder !== undefined) {
      skipped.push({
        name,
        reason: `${reserved.has(name) ? "its name" : `its namespace "${ns}"`} is taken by the ` +
          `${holder}; mcpx would refuse both`,
      });
      continue;
    }
    if (names.has(name)) {
      skipped.push({
        name,
        reason: batch.has(name)
          ? `its name is taken by ${earlier(name)}`
          : `${file} already has a server named "${name}"`,
      });
      continue;
    }
    const nsHolder = namespaces.get(ns);
    if (nsHolder !== undefined) {
      skipped.push({
        name,
        reason: batch.has(nsHolder)
          ? `its namespace "${ns}" is taken by ${earlier(nsHolder)}`
          : `its namespace "${ns}" is taken by the server "${nsHolder}" in ${file}`,
      });
      continue;
    }
    const edits = modify(current, ["mcpServers", name], entry, {
      formattingOptions: formatting,
      // Appended after the existing entries, as a person would add one.
      getInsertionIndex: (properties) => properties.length,
    });
    current = applyEdits(current, edits);
    names.add(name);
    namespaces.set(ns, name);
    batch.set(name, server);
    added.push(name);
  }
  if (added.length > 0 && !current.endsWith("\n")) current += formatting.eol ?? "\n";
  return { text: added.length > 0 ? current : text, added, skipped };
}

/**
 * A unified diff of a file's old and new text (`--- path` / `+++ path`
 * headers, three lines of context), or "" when they are equal.
 *
 * @param path The file's path, shown in both headers.
 * @param before Its text before (empty for a new file).
 * @param after Its text after.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return "";
  const patch = createTwoFilesPatch(
    before === "" ? "/dev/null" : path,
    path,
    before,
    after,
    undefined,
    undefined,
    { context: 3 },
  );
  // jsdiff opens with `Index:` and a line of `=` signs, which `diff -u` does not print.
  return patch.slice(patch.indexOf("--- "));
}

/** What {@link writeServers} did. */
export interface ServerWriteResult extends ServerEdit {
  path: string;
  /** The file did not exist and was created. */
  created: boolean;
  /** The change as a unified diff ("" when nothing was added). */
  diff: string;
}

/**
 * Adds servers to the configuration file at `path` ({@link addServers}),
 * creating it (and its directory) when it does not exist, and writes it only
 * when something was added. Its entries may hold secrets (an imported token),
 * so it is written private whatever the umask (core/private_fs.ts
 * `writeSecretFile`): a new file 0600 in directories created 0700, an
 * existing one narrowed to 0600 and rewritten in place, so a link to it is kept.
 *
 * @param path Absolute path of the configuration file.
 * @param servers What to add.
 * @param options.dryRun Compute the change and its diff; write nothing.
 * @param options.reserved Names held outside `mcpServers` ({@link addServers}).
 * @param options.ownDir Set when the file's directory is mcpx's own (`~/.config/mcpx`):
 *   what mcpx keeps there; that directory is then held private (0700) too.
 * @throws {ConfigError} As {@link addServers}, or when the file cannot be read or written.
 * @throws {UnsafeDirectoryError} With `ownDir`, when another user owns or can write the directory.
 */
export async function writeServers(
  path: string,
  servers: readonly NewServer[],
  options: { dryRun?: boolean; reserved?: ReservedNames; ownDir?: string } = {},
): Promise<ServerWriteResult> {
  let before = "";
  let created = false;
  try {
    before = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new ConfigError(path, "", `cannot be read: ${(error as Error).message}`, {
        cause: error,
      });
    }
    created = true;
  }
  const edit = addServers(before, servers, path, options.reserved);
  const diff = unifiedDiff(path, before, edit.text);
  if (!options.dryRun && edit.added.length > 0) {
    try {
      // An added entry may hold a token: the file is private whatever the umask.
      await writeSecretFile(path, edit.text, { ownDir: options.ownDir });
    } catch (error) {
      if (error instanceof UnsafeDirectoryError) throw error;
      throw new ConfigError(path, "", `cannot be written: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return { ...edit, path, created: created && edit.added.length > 0, diff };
}
