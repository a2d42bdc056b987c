/**
 * String-shaped inputs (`--prefix`, `--before`, `--launcher`, …) that may be
 * inline source, a file, or a directory of fragments (spec 000, "Source that
 * can be a file").
 *
 * @module
 */

import { resolve } from "../core/posix_path.ts";
import { UsageError } from "../core/errors.ts";
import { naturalCompare } from "./natural_order.ts";
import {
  DEFAULT_INPUT_MAX_BYTES,
  type InputLimit,
  inputTooLarge,
  readAllBounded,
} from "../core/bounded_read.ts";

/** Forces a value to be read as inline source, whatever is on disk. */
export const TEXT_PREFIX = "@text:";
/** Forces a value to be read as a path; a missing path is then an error. */
export const FILE_PREFIX = "@file:";

/** Source text and where it came from. */
export interface ResolvedSource {
  /** The source text (a directory's files joined, each under a comment naming it). */
  text: string;
  /** `"inline"`, or the absolute path of the file or directory that was read. */
  origin: string;
}

/** Options of {@link resolveSource} and {@link resolveSources}. */
export interface ResolveSourceOptions {
  /** Directory that relative paths are resolved against. */
  cwd: string;
  /**
   * Whether a value naming something on disk is read as it (default true).
   * False makes every value inline source, except one starting with `@file:`.
   * This is the `plumbing.sourceProbePaths` switch.
   */
  probe?: boolean;
  /** What the value was given as (e.g. `--prefix`); starts every message. */
  label?: string;
  /** Stops reading; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * The most bytes one value may read, a directory's files together
   * (`input.maxBytes`; default {@link DEFAULT_INPUT_MAX_BYTES}).
   */
  limit?: InputLimit;
}

/**
 * Resolves one value to source text.
 *
 * - `@text:…` is the rest of the value, inline.
 * - `@file:…` is a path (relative to `cwd`) that must exist.
 * - Otherwise, when probing, a value naming an existing file is its text and
 *   one naming a directory is the directory's files; anything else (no such
 *   path, a multi-line value, a name too long for a path) is inline source.
 *
 * A directory contributes its regular files and symbolic links to regular
 * files, not its subdirectories and not names starting with `.` (editor swap
 * files, `.DS_Store`), in natural order (`9-x.ts` before `10-y.ts`,
 * {@link naturalCompare}). Each file is preceded by a line `// <path>` so a
 * stack trace into the joined text can be traced to its file. Files must be
 * UTF-8; a leading byte-order mark is dropped.
 *
 * @param value The value as the user gave it.
 * @param options `cwd`, `probe`, `label`, `signal`.
 * @returns The text and its origin.
 * @throws {UsageError} A forced path that does not exist; a file or directory
 *   that cannot be read or is not UTF-8; a path that exists but is neither a
 *   file nor a directory; a path whose existence cannot be checked.
 * @example
 * ```ts
 * import { resolveSource } from "./source.ts";
 * const inline = await resolveSource("log.info('hi');", { cwd: "/" });
 * if (inline.origin !== "inline") throw new Error(inline.origin);
 * const forced = await resolveSource("@text:/etc", { cwd: "/" });
 * if (forced.text !== "/etc") throw new Error(forced.text);
 * ```
 */
export async function resolveSource(
  value: string,
  options: ResolveSourceOptions,
): Promise<ResolvedSource> {
  options.signal?.throwIfAborted();
  const say = (message: string) =>
    new UsageError(`${options.label ? `${options.label}: ` : ""}${message}`);
  if (value.startsWith(TEXT_PREFIX)) {
    return { text: value.slice(TEXT_PREFIX.length), origin: "inline" };
  }
  if (value.startsWith(FILE_PREFIX)) {
    const given = value.slice(FILE_PREFIX.length);
    if (given === "") throw say(`${FILE_PREFIX} needs a path after it`);
    const path = resolve(options.cwd, given);
    const info = await statOrReason(path);
    if (typeof info === "string") {
      throw say(
        `cannot read ${path} (from ${
          JSON.stringify(value)
        }): ${info}; fix the path, or drop ${FILE_PREFIX} to use the value as source`,
      );
    }
    return await readPath(path, info, say, options);
  }
  if (options.probe === false || !mayBePath(value)) return { text: value, origin: "inline" };
  const path = resolve(options.cwd, value);
  const info = await statOrReason(path);
  if (info === INLINE) return { text: value, origin: "inline" };
  if (typeof info === "string") {
    throw say(
      `cannot tell whether ${path} is a file: ${info}; fix its permissions, or write ${TEXT_PREFIX} before the value to use it as source`,
    );
  }
  return await readPath(path, info, say, options);
}

/**
 * Resolves several values, finding every problem in one pass rather than
 * stopping at the first, so a run with three bad paths reports three (spec
 * 000, "Checking before running"). Problems are returned, not thrown, so the
 * caller can merge them with its other checks and report once.
 *
 * @param values The values, in order.
 * @param options As for {@link resolveSource}; `label` starts each problem.
 * @returns `sources` in the order of `values` (a value with a problem is left
 *   out) and `problems`, one message per bad value, in the order of `values`.
 * @throws The signal's reason when aborted; any error other than a
 *   {@link UsageError} (those become problems).
 * @example
 * ```ts
 * import { resolveSources } from "./source.ts";
 * const { sources, problems } = await resolveSources(["a();", "@file:/no/such"], { cwd: "/" });
 * if (sources.length !== 1 || problems.length !== 1) throw new Error();
 * ```
 */
export async function resolveSources(
  values: readonly string[],
  options: ResolveSourceOptions,
): Promise<{ sources: ResolvedSource[]; problems: string[] }> {
  const settled = await Promise.allSettled(values.map((v) => resolveSource(v, options)));
  const sources: ResolvedSource[] = [];
  const problems: string[] = [];
  for (const outcome of settled) {
    if (outcome.status === "fulfilled") sources.push(outcome.value);
    else if (outcome.reason instanceof UsageError) problems.push(outcome.reason.message);
    else throw outcome.reason;
  }
  return { sources, problems };
}

const INLINE = Symbol("inline");

/** Whether a value could name a path at all; code with newlines or huge values cannot. */
function mayBePath(value: string): boolean {
  return value !== "" && value.length <= 4096 && !/[\n\r\0]/.test(value);
}

/**
 * The path's stat; {@link INLINE} when nothing is there (so a probed value is
 * source); otherwise the reason it cannot be known.
 */
async function statOrReason(path: string): Promise<Deno.FileInfo | typeof INLINE | string> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (
      error instanceof Deno.errors.NotFound || code === "ENOTDIR" || code === "ENAMETOOLONG" ||
      code === "EINVAL"
    ) {
      return INLINE;
    }
    return reason(error);
  }
}

async function readPath(
  path: string,
  info: Deno.FileInfo | typeof INLINE,
  say: (message: string) => UsageError,
  options: ResolveSourceOptions,
): Promise<ResolvedSource> {
  if (info === INLINE) {
    throw say(
      `cannot read ${path}: it does not exist; fix the path, or drop ${FILE_PREFIX} to use the value as source`,
    );
  }
  const limit = options.limit ?? { maxBytes: DEFAULT_INPUT_MAX_BYTES };
  // What is left of the limit: a directory's files share it.
  const budget = { left: limit.maxBytes };
  const read = (file: string) => readText(file, say, options.signal, limit, budget, path);
  if (info.isFile) return { text: await read(path), origin: path };
  if (!info.isDirectory) {
    throw say(
      `cannot read ${path}: it is neither a file nor a directory; name a file or a directory of files`,
    );
  }
  let names: string[];
  try {
    names = [];
    for await (const entry of Deno.readDir(path)) {
      if (entry.name.startsWith(".")) continue;
      if (entry.isFile) names.push(entry.name);
      else if (entry.isSymlink) {
        const target = await Deno.stat(`${path}/${entry.name}`).catch(() => undefined);
        if (target?.isFile) names.push(entry.name);
      }
    }
  } catch (error) {
    throw say(
      `cannot read directory ${path}: ${reason(error)}; fix its permissions or name another source`,
    );
  }
  names.sort(naturalCompare);
  const parts: string[] = [];
  for (const name of names) {
    const file = `${path}/${name}`;
    const text = await read(file);
    parts.push(
      `// ${file.replace(/[\r\n\u2028\u2029]/g, "?")}\n${text}${text.endsWith("\n") ? "" : "\n"}`,
    );
  }
  return { text: parts.join(""), origin: path };
}

/**
 * One file's text, refused past what is left of the limit (`budget.left`,
 * shared by a directory's files; core/bounded_read.ts) and when it is not a
 * regular file (a link in a directory may lead to a device).
 */
async function readText(
  path: string,
  say: (message: string) => UsageError,
  signal: AbortSignal | undefined,
  limit: InputLimit,
  budget: { left: number },
  origin: string,
): Promise<string> {
  signal?.throwIfAborted();
  const what = `${say("").message}${origin === path ? path : `the files of ${origin}`}`;
  const tooLarge = (read: number) =>
    inputTooLarge(what, read + limit.maxBytes - budget.left, limit);
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) {
      throw say(
        `cannot read ${path}: it is not a regular file; name a file or a directory of files`,
      );
    }
    if (info.size > budget.left) throw tooLarge(info.size);
    using file = await Deno.open(path, { read: true });
    bytes = await readAllBounded(file, budget.left, tooLarge, signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof UsageError) throw error;
    throw say(`cannot read ${path}: ${reason(error)}; fix its permissions or name another source`);
  }
  budget.left -= bytes.length;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw say(`cannot read ${path}: it is not UTF-8 text; save it as UTF-8 or name another source`);
  }
}

/** A short human reason for a failed file-system call. */
function reason(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (error instanceof Deno.errors.NotFound) return "it does not exist";
  if (error instanceof Deno.errors.PermissionDenied || code === "EACCES" || code === "EPERM") {
    return "permission denied";
  }
  if (code === "ELOOP") return "too many levels of symbolic links";
  if (code === "EISDIR") return "it is a directory";
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\(os error \d+\).*$/s, "");
}
