/**
 * What the file system says of a path, as the private-directory rule
 * (core/private_dir_rule.ts) judges it, read through Deno. A module of its
 * own, with no other import, so the thin client (cli/relay/relay_wire.ts)
 * checks its socket's folder without loading mcpx's error types.
 *
 * @module
 */

import type { PathFacts } from "./private_dir_rule.ts";

/**
 * What `lstat` (`follow` false) or `stat` says of `path`: the facts the
 * private-directory rule judges (core/private_dir_rule.ts).
 *
 * @returns Undefined when nothing is there.
 * @throws The file system's error for anything but a missing path (permission denied…).
 */
export function pathFacts(path: string, follow: boolean): PathFacts | undefined {
  try {
    const info = follow ? Deno.statSync(path) : Deno.lstatSync(path);
    return {
      isDirectory: info.isDirectory,
      isSymlink: info.isSymlink,
      uid: info.uid,
      mode: info.mode,
    };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
