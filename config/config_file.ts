/**
 * What may be read as a configuration file: a regular file (symbolic links
 * followed) of at most {@link MAX_CONFIG_BYTES}. Anything else is refused
 * before a byte is read, naming what it is: a directory, a named pipe
 * (which would block the read until someone writes to it), a device such as
 * `/dev/zero` (which would be read forever), a socket, or a symbolic link to
 * nothing (issue 9, "Configuration edge cases").
 *
 * @module
 */

import { ConfigError } from "../core/errors.ts";
import { entryKind, readAllBounded } from "../core/bounded_read.ts";

/**
 * The largest configuration file mcpx reads, in bytes (16 MiB). A file of
 * ten thousand servers is about 2 MB; anything near this size is not a
 * configuration someone wrote.
 */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/**
 * What is at a candidate configuration path: nothing (not even a link), a
 * regular file (symbolic links followed), or something that cannot be one,
 * with the sentence saying what it is and the fix. One `lstat` when nothing
 * is there, which is most of a search's candidates.
 *
 * @param path The candidate.
 * @param named True for a path the user named (`--config`, `MCPX_CONFIG`),
 *   false for one the search looked at: the fix differs for a directory.
 * @throws the file system's error when `path` cannot be inspected (permission denied).
 */
export function configPathState(
  path: string,
  named = true,
): { state: "absent" } | { state: "file" } | { state: "problem"; problem: string } {
  let link: Deno.FileInfo;
  try {
    link = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return { state: "absent" };
    }
    throw error;
  }
  let info = link;
  if (link.isSymlink) {
    try {
      info = Deno.statSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      let target = "";
      try {
        target = ` to ${Deno.readLinkSync(path)}`;
      } catch { /* gone meanwhile */ }
      const problem =
        `is a symbolic link${target}, which does not exist; fix the link or remove it`;
      return { state: "problem", problem };
    }
  }
  if (info.isFile) return { state: "file" };
  const kind = `is ${entryKind(info)}, not a configuration file`;
  if (info.isDirectory) {
    return {
      state: "problem",
      problem: named
        ? `${kind}; name a file such as ${path.replace(/\/$/, "")}/.mcp.json`
        : `${kind}, and mcpx looks for a file of that name here; rename or remove the directory`,
    };
  }
  return {
    state: "problem",
    problem: `${kind}; mcpx reads configuration only from regular files${
      named ? ": name one, such as .mcp.json" : ": replace it with one, or remove it"
    }`,
  };
}

/**
 * Why `path` cannot be a configuration file, or undefined when it is a
 * regular file or does not exist at all (nothing, not even a link, is there).
 *
 * @param path The candidate.
 * @param named True for a path the user named (`--config`, `MCPX_CONFIG`),
 *   false for one the search looked at: the fix differs for a directory.
 * @returns A sentence: what is there and the fix.
 * @throws the file system's error when `path` cannot be inspected (permission denied).
 */
export function notAConfigFile(path: string, named = true): string | undefined {
  const found = configPathState(path, named);
  return found.state === "problem" ? found.problem : undefined;
}

/**
 * Reads a configuration file's bytes: only a regular file, and at most
 * {@link MAX_CONFIG_BYTES} of it (a file that grows past the limit while it
 * is read is refused too).
 *
 * @param path The file (symbolic links are followed).
 * @param signal Aborts the read.
 * @returns The bytes.
 * @throws {ConfigError} naming the file when it is not a regular file or is too large.
 * @throws the file system's error when it cannot be read ({@link Deno.errors}).
 */
export async function readConfigBytes(path: string, signal?: AbortSignal): Promise<Uint8Array> {
  const problem = notAConfigFile(path);
  if (problem) throw new ConfigError(path, "", problem);
  // Opened only once it is known to be a regular file (opening a FIFO would wait for a
  // writer); then checked again on the open file. Synchronous: a CLI's first async file
  // operation starts Deno's blocking-task pool (~1–2 ms), and these reads never block.
  using file = Deno.openSync(path, { read: true });
  const info = file.statSync();
  if (!info.isFile) {
    throw new ConfigError(path, "", notAConfigFile(path) ?? "is not a regular file");
  }
  if (info.size > MAX_CONFIG_BYTES) throw tooLarge(path, info.size);
  // The one bounded reader of whole inputs (core/bounded_read.ts), with the configuration's limit.
  return await readAllBounded(file, MAX_CONFIG_BYTES, (n) => tooLarge(path, n), signal);
}

function tooLarge(path: string, size: number): ConfigError {
  return new ConfigError(
    path,
    "",
    `the file holds more than ${MAX_CONFIG_BYTES} bytes (${size} read), more than a ` +
      `configuration needs; name the right file, or split what it holds`,
  );
}
