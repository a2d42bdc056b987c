/**
 * `file://` URLs for absolute paths, without loading `node:url` on the CLI's
 * start-up path (decision 0002).
 *
 * @module
 */

/**
 * The file URL of an absolute POSIX path, each segment percent-encoded.
 *
 * @example
 * ```ts
 * import { toFileUrl } from "./file_url.ts";
 * if (toFileUrl("/a b/c#.ts") !== "file:///a%20b/c%23.ts") throw new Error();
 * ```
 */
export function toFileUrl(path: string): string {
  return "file://" + path.split("/").map(encodeURIComponent).join("/");
}
