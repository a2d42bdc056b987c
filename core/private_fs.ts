/**
 * Directories and files only their owner can use: where mcpx keeps sockets,
 * state and caches. Another local user must not be able to read what is
 * there (configuration paths, pids, error records) nor put a file or socket
 * of their own in it (a socket there would receive every call's arguments).
 *
 * Rules (issue 9, "Nobody else gets in"; spec 000 "One daemon per config";
 * decision 0014): a directory mcpx uses is owned by the current user and
 * writable by nobody else, checked on the directory itself with `lstat` (its
 * parents, such as macOS `/tmp` or a dotfile-managed `~/.local`, may be
 * symlinks). A symlink as the final directory is accepted only when the link
 * and its target are both the user's. The rule itself is
 * core/private_dir_rule.ts, which the generated client shares. Directories
 * mcpx creates are 0700; one of the user's own that others can read but not
 * write is narrowed to 0700. Files are written 0600, atomically (a temporary
 * file beside them, fsync, rename).
 *
 * @module
 */

import { McpxError, storageErrorOf } from "./errors.ts";
import { judgePrivateDir, privateDirMessage } from "./private_dir_rule.ts";
import { pathFacts } from "./path_facts.ts";

export { pathFacts } from "./path_facts.ts";

/** A directory another user owns or can write into: mcpx will not use it. */
export class UnsafeDirectoryError extends McpxError {
  /** The directory refused. */
  readonly path: string;
  constructor(path: string, message: string, options?: ErrorOptions) {
    super("unsafe-directory", message, options);
    this.name = "UnsafeDirectoryError";
    this.path = path;
  }
}

/** The permission bits of private directories and files. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Checks that `path` is a directory the current user owns and nobody else can
 * write into (core/private_dir_rule.ts), narrowing a readable one of the
 * user's own to 0700. One `lstat` (two for a symlink).
 *
 * @param what What mcpx keeps there, for the message (`"the daemon's socket"`).
 * @returns false when `path` does not exist.
 * @throws {UnsafeDirectoryError} naming the directory, its owner or mode, and
 *   the fix, when another user owns it (or the link to it), it is group- or
 *   world-writable, or it is not a directory.
 */
export function checkPrivateDir(path: string, what: string): boolean {
  const uid = Deno.uid();
  const verdict = judgePrivateDir(path, uid, pathFacts);
  if (verdict.problem) {
    throw new UnsafeDirectoryError(path, privateDirMessage(path, what, uid, verdict.problem));
  }
  if (verdict.readable) Deno.chmodSync(path, PRIVATE_DIR_MODE);
  return verdict.exists;
}

/**
 * Creates `path` (and missing parents) as 0700 when absent, then holds it to
 * {@link checkPrivateDir}. With `options.from` (an ancestor of `path`, such
 * as the state directory), every directory from that one down to `path` is
 * held to it too, so a directory of another user's between the two is refused
 * rather than trusted.
 *
 * @param what What mcpx keeps there, for the message.
 * @throws {UnsafeDirectoryError} as {@link checkPrivateDir}; a
 *   {@link StorageError} naming the directory and the fix when the file system
 *   refuses to create it (no space, quota, read-only, permission: core/errors.ts
 *   `STORAGE_CODES`); any other {@link Deno.errors} error as it came.
 */
export function ensurePrivateDir(
  path: string,
  what: string,
  options: { from?: string } = {},
): void {
  const from = options.from?.replace(/\/+$/, "");
  const chain = [path];
  if (from && path.startsWith(`${from}/`)) {
    for (let dir = parentOf(path); dir.length >= from.length; dir = parentOf(dir)) {
      chain.unshift(dir);
      if (dir === from) break;
    }
  }
  for (const dir of chain) {
    if (checkPrivateDir(dir, what)) continue;
    try {
      Deno.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw storageErrorOf(error, dir) ?? error;
    }
    // mkdir's mode is narrowed by the umask, never widened; the check settles it either way.
    checkPrivateDir(dir, what);
  }
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

/**
 * Writes `data` to `path` atomically and privately: a temporary file beside it
 * (mode 0600, created new), fsync, then rename over `path`. A reader sees the
 * old file or the new one, never a part; on failure (a full disk, say) the
 * temporary file is removed and `path` keeps what it had.
 *
 * @throws {StorageError} naming `path` and the fix when the file system refuses
 *   (no space, quota, read-only, permission: core/errors.ts `STORAGE_CODES`); any other
 *   file system error ({@link Deno.errors}) as it came, after cleaning up either way.
 */
export function writePrivateFileSync(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  try {
    using file = Deno.openSync(tmp, { createNew: true, write: true, mode: PRIVATE_FILE_MODE });
    for (let written = 0; written < bytes.length;) {
      written += file.writeSync(bytes.subarray(written));
    }
    file.syncSync();
  } catch (error) {
    try {
      Deno.removeSync(tmp);
    } catch { /* never created */ }
    throw storageErrorOf(error, path) ?? error;
  }
  try {
    Deno.renameSync(tmp, path);
  } catch (error) {
    try {
      Deno.removeSync(tmp);
    } catch { /* already gone */ }
    throw storageErrorOf(error, path) ?? error;
  }
}

/** {@link writePrivateFileSync}, asynchronously. */
export async function writePrivateFile(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  try {
    using file = await Deno.open(tmp, { createNew: true, write: true, mode: PRIVATE_FILE_MODE });
    for (let written = 0; written < bytes.length;) {
      written += await file.write(bytes.subarray(written));
    }
    await file.sync();
    await Deno.rename(tmp, path);
  } catch (error) {
    try {
      await Deno.remove(tmp);
    } catch { /* never created, or renamed */ }
    throw storageErrorOf(error, path) ?? error;
  }
}

/**
 * Writes a file that may hold a secret (a configuration file holding an
 * imported token) where a person's own file lives, private whatever the
 * umask: a new file is written as {@link writePrivateFile} writes (0600,
 * atomically), in directories created 0700; an existing file is narrowed to
 * 0600 before its new text goes in, then rewritten in place, so a link to it
 * stays a link. With `options.ownDir`, the file's directory is mcpx's own
 * (`~/.config/mcpx`) and is held to {@link ensurePrivateDir}; otherwise an
 * existing directory (a project's) is left as it is.
 *
 * Source: issue 24, "Secrets written by mcpx are private" (`mcpx import
 * --write` made `~/.config/mcpx/config.json` 0644 with tokens in it).
 *
 * @param path The file's absolute path.
 * @param text Its new text.
 * @param options.ownDir What mcpx keeps in the directory (for
 *   {@link ensurePrivateDir}'s message) when the directory is mcpx's own.
 * @throws {UnsafeDirectoryError} as {@link ensurePrivateDir}, with `ownDir`.
 * @throws {StorageError} naming `path` and the fix when the file system
 *   refuses; any other file system error as it came.
 */
export async function writeSecretFile(
  path: string,
  text: string,
  options: { ownDir?: string } = {},
): Promise<void> {
  const dir = parentOf(path);
  if (options.ownDir) ensurePrivateDir(dir, options.ownDir);
  let mode: number | undefined;
  try {
    mode = (await Deno.stat(path)).mode ?? undefined;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw storageErrorOf(error, path) ?? error;
  }
  try {
    if (mode === undefined) {
      // mkdir's mode is narrowed by the umask, never widened: at most 0700.
      await Deno.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      return await writePrivateFile(path, text);
    }
    if ((mode & 0o077) !== 0) await Deno.chmod(path, PRIVATE_FILE_MODE);
    await Deno.writeTextFile(path, text);
  } catch (error) {
    throw storageErrorOf(error, path) ?? error;
  }
}
