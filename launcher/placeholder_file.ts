/**
 * Placeholders declared by files (spec 000, "Placeholders that take
 * arguments"): a file's text is the fill; its name and parameters come from a
 * first-line comment, an exported constant, or the file name.
 *
 * @module
 */

import { basename, resolve } from "../core/posix_path.ts";
import { InputError, UsageError } from "../core/errors.ts";
import { DEFAULT_INPUT_MAX_BYTES, type InputLimit, readBoundedFile } from "../core/bounded_read.ts";
import { naturalCompare } from "./natural_order.ts";
import type { Fill } from "./template.ts";

/** A placeholder read from a file. */
export interface PlaceholderFile {
  /** The placeholder's name, without `@`. */
  name: string;
  /** Its fill: the file's text without the declaration. */
  fill: Fill;
  /** The file it came from. */
  path: string;
  /** Which of the three spellings named it. */
  declaredBy: "comment" | "constant" | "filename";
}

const COMMENT = /^[ \t]*\/\/[ \t]*@mcpx:placeholder[ \t]+(.*?)[ \t]*$/;
const CONSTANT =
  /^[ \t]*export[ \t]+const[ \t]+MCPX_PLACEHOLDER[ \t]*(?::[ \t]*string[ \t]*)?=[ \t]*(["'`])(.*?)\1[ \t]*;?[ \t]*$/m;
const DECLARATION = /^([A-Za-z_$][A-Za-z0-9_$]*)[ \t]*(?:\((.*)\))?$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Reads the placeholder a file declares, in this order of precedence:
 *
 * 1. a first line `// @mcpx:placeholder name(a, b)` (removed from the fill);
 * 2. a line `export const MCPX_PLACEHOLDER = "name(a, b)";` (removed from the
 *    fill, since an `export` cannot stand inside the launcher's blocks);
 * 3. the file name up to its first dot (`timed.ts` → `timed`), taking any
 *    number of arguments.
 *
 * `name(a, b)` declares parameters, so every use must give exactly that many;
 * `name()` declares none; a bare `name` accepts any number (`@1`, `@args`).
 *
 * @param path The file's path (named in errors; its name is the fallback).
 * @param text The file's text.
 * @returns The placeholder.
 * @throws {UsageError} A declaration or file name that is not `name` or
 *   `name(a, b)` with identifier names, or that repeats a parameter.
 * @example
 * ```ts
 * import { parsePlaceholderFile } from "./placeholder_file.ts";
 * const p = parsePlaceholderFile("/x/t.ts", "// @mcpx:placeholder timed(body, label)\n{ @body }\n");
 * if (p.name !== "timed" || p.fill.params?.join() !== "body,label") throw new Error();
 * ```
 */
export function parsePlaceholderFile(path: string, text: string): PlaceholderFile {
  const newline = text.indexOf("\n");
  const first = newline < 0 ? text : text.slice(0, newline);
  const comment = COMMENT.exec(first.replace(/^\uFEFF/, "").replace(/\r$/, ""));
  if (comment) {
    const body = newline < 0 ? "" : text.slice(newline + 1);
    return { ...declared(path, comment[1], "its first line", body), path, declaredBy: "comment" };
  }
  const constant = CONSTANT.exec(text);
  if (constant) {
    const end = constant.index + constant[0].length;
    const body = text.slice(0, constant.index) + text.slice(text[end] === "\n" ? end + 1 : end);
    return {
      ...declared(path, constant[2], "MCPX_PLACEHOLDER", body),
      path,
      declaredBy: "constant",
    };
  }
  const file = basename(path);
  const name = file.includes(".") ? file.slice(0, file.indexOf(".")) : file;
  if (!IDENTIFIER.test(name) || name === "args") {
    throw new UsageError(
      `placeholder file ${path}: its name ${JSON.stringify(name)} is not a placeholder name ` +
        `(letters, digits, _ and $, not starting with a digit); rename the file, or declare ` +
        `the name on its first line: // @mcpx:placeholder <name>`,
    );
  }
  return { name, fill: { body: text }, path, declaredBy: "filename" };
}

function declared(
  path: string,
  declaration: string,
  where: string,
  body: string,
): { name: string; fill: Fill } {
  const fail = (why: string) =>
    new UsageError(
      `placeholder file ${path}: ${where} declares ${JSON.stringify(declaration)}, ${why}; ` +
        `write name or name(a, b) with names of letters, digits, _ and $`,
    );
  const m = DECLARATION.exec(declaration.trim());
  if (!m || m[1] === "args") throw fail("which is not a placeholder name");
  if (m[2] === undefined) return { name: m[1], fill: { body } };
  const params = m[2].trim() === "" ? [] : m[2].split(",").map((p) => p.trim());
  for (const [i, param] of params.entries()) {
    if (!IDENTIFIER.test(param) || param === "args") {
      throw fail(`whose parameter ${JSON.stringify(param)} is not a name`);
    }
    if (params.indexOf(param) !== i) throw fail(`which names the parameter ${param} twice`);
  }
  return { name: m[1], fill: { body, params } };
}

/**
 * Turns placeholder files into fills, refusing a name that shadows a built-in
 * (a template that reads correctly would mean something else) and a name
 * claimed by two files (there is no order between them).
 *
 * @param files The files, each `{ path, text }`.
 * @param builtins Names that may not be declared (the launcher's own placeholders).
 * @returns `fills` by name, and `problems` (every one, in file order); a
 *   refused file contributes no fill.
 * @example
 * ```ts
 * import { placeholdersFromFiles } from "./placeholder_file.ts";
 * const { problems } = placeholdersFromFiles([{ path: "/p/entry.ts", text: "" }], ["entry"]);
 * if (!problems[0].includes("built in")) throw new Error(problems[0]);
 * ```
 */
export function placeholdersFromFiles(
  files: ReadonlyArray<{ path: string; text: string }>,
  builtins: Iterable<string>,
): { fills: Record<string, Fill>; problems: string[] } {
  const reserved = new Set(builtins);
  const byName = new Map<string, PlaceholderFile[]>();
  const problems: string[] = [];
  for (const { path, text } of files) {
    let file: PlaceholderFile;
    try {
      file = parsePlaceholderFile(path, text);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.push(error.message);
      continue;
    }
    if (reserved.has(file.name)) {
      problems.push(
        `placeholder file ${path} declares @${file.name}, which is built in; a file may not ` +
          `replace a built-in placeholder, so choose another name`,
      );
      continue;
    }
    byName.set(file.name, [...(byName.get(file.name) ?? []), file]);
  }
  const fills: Record<string, Fill> = {};
  for (const [name, claims] of byName) {
    if (claims.length === 1) fills[name] = claims[0].fill;
    else {
      problems.push(
        `@${name} is declared by ${claims.length} files (${
          claims.map((c) => c.path).join(", ")
        }); ` +
          `rename all but one`,
      );
    }
  }
  return { fills, problems };
}

/**
 * Reads the files of `paths.placeholders`: each entry is a file or a
 * directory whose regular files (not subdirectories, not names starting with
 * `.`) are read in natural order. A missing entry is a problem, as is an
 * unreadable file.
 *
 * @param paths Files or directories, relative to `cwd`.
 * @param options `cwd`; `signal` stops reading; `limit` bounds each file (`input.maxBytes`),
 *   which must be a regular file (core/bounded_read.ts).
 * @returns The files read and the problems found, all of them.
 * @throws The signal's reason when aborted.
 */
export async function readPlaceholderFiles(
  paths: readonly string[],
  options: { cwd: string; signal?: AbortSignal; limit?: InputLimit },
): Promise<{ files: Array<{ path: string; text: string }>; problems: string[] }> {
  const files: Array<{ path: string; text: string }> = [];
  const problems: string[] = [];
  const limit = options.limit ?? { maxBytes: DEFAULT_INPUT_MAX_BYTES };
  const read = async (path: string) => {
    options.signal?.throwIfAborted();
    try {
      const bytes = await readBoundedFile(path, `placeholder file ${path}`, limit, options.signal);
      files.push({ path, text: new TextDecoder().decode(bytes) });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      problems.push(
        error instanceof InputError
          ? error.message
          : `placeholder file ${path} cannot be read: ${describe(error)}`,
      );
    }
  };
  for (const entry of paths) {
    const path = resolve(options.cwd, entry);
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch (error) {
      problems.push(
        `placeholder path ${path} cannot be read: ${describe(error)}; fix paths.placeholders`,
      );
      continue;
    }
    if (!info.isDirectory) {
      await read(path);
      continue;
    }
    const names: string[] = [];
    for await (const item of Deno.readDir(path)) {
      if (!item.name.startsWith(".") && (item.isFile || item.isSymlink)) names.push(item.name);
    }
    for (const name of names.sort(naturalCompare)) await read(resolve(path, name));
  }
  return { files, problems };
}

function describe(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "it does not exist";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  return (error instanceof Error ? error.message : String(error)).replace(
    /\s*\(os error \d+\).*$/s,
    "",
  );
}
