/**
 * Whether a path names something, asked synchronously: a file removed
 * behind mcpx's back (a socket, a log file, a trust marker), or a candidate
 * configuration file.
 *
 * @module
 */

/**
 * Whether something is at `path`, following symlinks (`stat`): a link whose
 * target is gone does not exist. Any error (not found, permission denied)
 * reads as false.
 *
 * @param path The path to look at.
 * @returns True when `stat` succeeds.
 * @example
 * ```ts
 * import { existsSync } from "./exists.ts";
 * if (!existsSync(Deno.cwd()) || existsSync(`${Deno.cwd()}/no such file`)) throw new Error();
 * ```
 */
export function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
