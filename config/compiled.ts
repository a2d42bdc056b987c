/**
 * Compiled configurations: the validated result of parsing a configuration,
 * stored under the cache directory so later runs skip the JSONC parser
 * (~40 ms of start-up, measured) and the validation.
 *
 * Sound by construction: the entry is keyed by the configuration's
 * fingerprint (its real path and its bytes), and only a configuration whose
 * text names no variable in `${…}` is stored, so the same key always parses
 * to the same result.
 *
 * Private by construction: a configuration that names a variable is never
 * stored, since its parsed form holds the expanded values (a `Bearer
 * ${TOKEN}` header with the token, a `?key=` in a url) and a cache file is
 * plain text; such a configuration is parsed on every run (decision 0002).
 * Nor is one that writes a secret literally (an `env` or `headers` value, a
 * URL's credentials: config/secrets.ts), so no file under the cache
 * directory holds a configured secret (decision 0017).
 * Entries are still created with mode 0600 (a cache directory mcpx creates
 * gets mode 0700), and writing one deletes the other `config-*.json` entries
 * written more than 7 days ago. An entry decides which commands mcpx starts,
 * so one is read only from a directory that is the user's alone
 * (core/private_fs.ts); another is refused, not read.
 *
 * @module
 */

import type { ParsedConfig } from "./parse.ts";
import { VERSION } from "../core/version.ts";
import {
  checkPrivateDir,
  ensurePrivateDir,
  UnsafeDirectoryError,
  writePrivateFileSync,
} from "../core/private_fs.ts";

/**
 * One stored entry. Version 2 entries also held configurations that name
 * variables (with their expanded values); version 3 never does. Version 4
 * entries combine the pool block's tool lists with a server's and give an
 * alias its target's profiles, which version 3 did not. Version 5 entries
 * give every stdio server its working directory (the configuration file's
 * real directory when the entry sets none), which version 4 left to the
 * daemon. Version 7 entries keep a server's `auth` block, which version 6
 * ignored (an entry of 6 would send no credentials). An entry of another version is neither read nor kept, nor is one
 * whose servers lack a `listingId` (written before listing identities,
 * decision 0025).
 */
interface CompiledEntry {
  /** 6: `parsed.runnableHashes` added. 7: servers carry their `auth` block. */
  version: 7;
  mcpxVersion: string;
  parsed: ParsedConfig;
}

/** Entries written longer ago than this are deleted when another is written: 7 days, in ms. */
export const COMPILED_MAX_AGE_MS = 7 * 86_400_000;

/** The variables a configuration's text names in `${NAME…}`. */
export function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]))];
}

function entryPath(cacheDir: string, fingerprint: string): string {
  return `${cacheDir}/config-${fingerprint}.json`;
}

/**
 * The compiled configuration for `fingerprint`, when an entry exists for this
 * mcpx version and has the shape {@link writeCompiled} gives it. A missing,
 * unreadable, older or damaged entry is `undefined` (parse again), never an
 * error.
 *
 * @param cacheDir The directory of compiled entries.
 * @param fingerprint The configuration's fingerprint (16 hex).
 * @returns The stored result of parsing, or undefined.
 * @throws {UnsafeDirectoryError} when `cacheDir` is another user's or others
 *   can write into it (one `lstat`): an entry there could name any command.
 */
export function readCompiled(cacheDir: string, fingerprint: string): ParsedConfig | undefined {
  if (!checkPrivateDir(cacheDir, "mcpx's cache")) return undefined;
  let entry: Partial<CompiledEntry> | null;
  try {
    entry = JSON.parse(Deno.readTextFileSync(entryPath(cacheDir, fingerprint)));
  } catch {
    return undefined;
  }
  if (entry?.version !== 7 || entry.mcpxVersion !== VERSION) return undefined;
  return isParsedConfig(entry.parsed) ? entry.parsed : undefined;
}

/**
 * Stores a compiled configuration, readable by its owner only, with its
 * servers' trust hashes (config/runnable_hash.ts) so that the commands that
 * read it hash nothing, unless its text names a variable or its servers are
 * given a literal secret (then an entry left at that path by an older mcpx is
 * deleted instead). Best effort:
 * a read-only cache only costs speed. Creates `cacheDir` with mode 0700 when
 * it is missing (core/private_fs.ts `ensurePrivateDir`), writes the entry 0600
 * and atomically, and deletes the other `config-*.json` entries there written
 * more than {@link COMPILED_MAX_AGE_MS} ago.
 *
 * @param cacheDir The directory of compiled entries.
 * @param fingerprint The configuration's fingerprint (16 hex).
 * @param text The configuration's text, to find the variables it names.
 * @param parsed The result of parsing `text`.
 * @returns `parsed` with its `runnableHashes` when they were stored (even when
 *   the write itself failed), else `parsed` as given.
 * @throws {UnsafeDirectoryError} when `cacheDir` is not the user's alone.
 */
export async function writeCompiled(
  cacheDir: string,
  fingerprint: string,
  text: string,
  parsed: ParsedConfig,
): Promise<ParsedConfig> {
  const path = entryPath(cacheDir, fingerprint);
  // Loaded here, after a parse, so reading a compiled entry does not pay for it.
  const { configSecrets } = await import("./secrets.ts");
  if (referencedVariables(text).length > 0 || configSecrets(parsed.document, {}).length > 0) {
    try {
      Deno.removeSync(path);
    } catch { /* none: the usual case */ }
    return parsed;
  }
  const { runnableHashes } = await import("./runnable_hash.ts");
  const stored = { ...parsed, runnableHashes: await runnableHashes(parsed.document) };
  const entry: CompiledEntry = { version: 7, mcpxVersion: VERSION, parsed: stored };
  try {
    ensurePrivateDir(cacheDir, "mcpx's cache");
    // Atomic and private, the temporary file removed on failure (core/private_fs.ts).
    writePrivateFileSync(path, JSON.stringify(entry));
  } catch (error) {
    if (error instanceof UnsafeDirectoryError) throw error;
    // Not writable (a full disk): parse again next time.
  }
  removeOldEntries(cacheDir, path);
  return stored;
}

/** Deletes `config-*.json` entries in `cacheDir` other than `keep` written more than 7 days ago. */
function removeOldEntries(cacheDir: string, keep: string): void {
  const before = Date.now() - COMPILED_MAX_AGE_MS;
  try {
    for (const item of Deno.readDirSync(cacheDir)) {
      const path = `${cacheDir}/${item.name}`;
      if (!/^config-.*\.json$/.test(item.name) || path === keep) continue;
      try {
        const mtime = Deno.lstatSync(path).mtime;
        if (mtime && mtime.getTime() < before) Deno.removeSync(path);
      } catch { /* gone meanwhile, or not ours to delete */ }
    }
  } catch { /* unreadable directory: nothing to clean */ }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === "string");
const isStringMap = (v: unknown) =>
  isObject(v) && Object.values(v).every((s) => typeof s === "string");

/** True when `v` has the shape of a {@link ParsedConfig} (what the CLI and daemon read of it). */
function isParsedConfig(v: unknown): v is ParsedConfig {
  return isObject(v) && isObject(v.document) && isStrings(v.warnings) &&
    (v.runnableHashes === undefined || isStringMap(v.runnableHashes)) &&
    Array.isArray(v.servers) && v.servers.every(isServerSpec);
}

function isServerSpec(s: unknown): boolean {
  if (!isObject(s)) return false;
  const { toolFilter, pool } = s;
  return typeof s.name === "string" && typeof s.namespace === "string" &&
    typeof s.disabled === "boolean" && typeof s.poolId === "string" &&
    typeof s.listingId === "string" &&
    ["stdio", "http", "sse"].includes(s.transport as string) &&
    isStrings(s.tags) && isObject(s.toolTags) && Object.values(s.toolTags).every(isStrings) &&
    isObject(toolFilter) && isStrings(toolFilter.exclude) &&
    (toolFilter.include === undefined || isStrings(toolFilter.include)) &&
    (toolFilter.pooled === undefined || isStrings(toolFilter.pooled)) &&
    isStrings(s.args) && isStringMap(s.env) && isStringMap(s.headers) &&
    ["command", "cwd", "url", "description"].every((k) =>
      s[k] === undefined || typeof s[k] === "string"
    ) &&
    isObject(pool) && typeof pool.sharing === "string" && typeof pool.scope === "string" &&
    typeof pool.whenFull === "string" &&
    [
      "max",
      "min",
      "idleTimeoutMs",
      "callTimeoutMs",
      "startTimeoutMs",
      "firstStartTimeoutMs",
      "leaseTimeoutMs",
    ].every((k) => typeof pool[k] === "number");
}
