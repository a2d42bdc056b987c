/**
 * POSIX path operations for the CLI's start-up path: `join`, `resolve`,
 * `dirname`, `isAbsolute`, with node:path's results.
 *
 * Why not node:path: importing any `node:` module starts Deno's Node
 * compatibility layer, ~8–12 ms per CLI run (measured), a third of the
 * budget of a warm `mcpx ls`. These four functions are all the start-up path
 * needs; the test holds them to node:path's answers.
 *
 * @module
 */

/** Collapses `.`, `..` and repeated slashes; keeps a leading and a trailing `/` (node:path `normalize`). */
function normalize(path: string): string {
  if (path === "") return ".";
  const absolute = path.startsWith("/");
  const trailing = path.endsWith("/");
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(part);
  }
  let joined = out.join("/");
  if (joined === "") return absolute ? "/" : trailing ? "./" : ".";
  if (trailing) joined += "/";
  return absolute ? `/${joined}` : joined;
}

/** True when `path` starts with `/`. */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/**
 * Joins segments with `/` and normalizes, as node:path `join`.
 * @example
 * ```ts
 * import { join } from "./posix_path.ts";
 * if (join("/a/b", "../c", "d") !== "/a/c/d") throw new Error();
 * ```
 */
export function join(...parts: string[]): string {
  const joined = parts.filter((p) => p !== "").join("/");
  return joined === "" ? "." : normalize(joined);
}

/**
 * Resolves segments right to left until a path is absolute, starting from
 * the process's working directory, as node:path `resolve`.
 */
export function resolve(...parts: string[]): string {
  let path = "";
  for (let i = parts.length - 1; i >= 0 && !path.startsWith("/"); i--) {
    if (parts[i] !== "") path = path ? `${parts[i]}/${path}` : parts[i];
  }
  if (!path.startsWith("/")) path = path ? `${Deno.cwd()}/${path}` : Deno.cwd();
  const normalized = normalize(path);
  return normalized.length > 1 && normalized.endsWith("/") ? normalized.slice(0, -1) : normalized;
}

/** The directory part of `path`, as node:path `dirname`. */
export function dirname(path: string): string {
  if (path === "") return ".";
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  const slash = path.lastIndexOf("/", end - 1);
  if (slash < 0) return ".";
  if (slash === 0) return "/";
  return path.slice(0, slash);
}

/** The last part of `path` (trailing slashes ignored), as node:path `basename`. */
export function basename(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  const trimmed = path.slice(0, end);
  if (trimmed === "/") return "";
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** The system's directory for temporary files: `$TMPDIR`, else `/tmp` (as node:os `tmpdir`). */
export function tmpdir(): string {
  const dir = Deno.env.get("TMPDIR") || Deno.env.get("TMP") || Deno.env.get("TEMP") || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}
