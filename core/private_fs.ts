/**
 * Directories and files only their owner can use: where mcpx keeps sockets,
 * state and caches. Another local user must not be able to read what is
 * there (configuration paths, pids, error records) nor put a file or socket
 * of their own in it (a socket there would receive every call's arguments).
 *
 * Rules (issue 9, "Nobody else gets in"; spec 000 "One daemon per config"):
 * a directory mcpx uses is owned by the current user and writable by nobody
 * else, checked on the directory itself with `lstat` (its parents, such as
 * macOS `/tmp` or a dotfile-managed `~/.local`, may be symlinks). A symlink
 * as the final directory is accepted only when the link and its target are
 * both the user's. Directories mcpx creates are 0700; one of the user's own
 * that others can read but not write is narrowed to 0700. Files are written
 * 0600, atomically (a temporary file beside them, fsync, rename).
 *
 * @module
 */

import { McpxError, storageErrorOf } from "../errors.ts";

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

/** The current user's id, or null where the platform has none (Windows). */
function currentUid(): number | null {
  return Deno.uid();
}

function octal(mode: number): string {
  return (mode & 0o777).toString(8).padStart(3, "0");
}

/**
 * Checks that `path` is a directory the current user owns and nobody else can
 * write into, narrowing a readable one of the user's own to 0700.
 *
 * @param what What mcpx keeps there, for the message (`"the daemon's socket"`).
 * @returns false when `path` does not exist.
 * @throws {UnsafeDirectoryError} naming the directory, its owner or mode, and
 *   the fix, when another user owns it (or the link to it), it is group- or
 *   world-writable, or it is not a directory.
 */
export function checkPrivateDir(path: string, what: string): boolean {
  const uid = currentUid();
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  if (uid === null) return true;
  if (info.isSymlink) {
    if (info.uid !== uid) throw notOurs(path, info.uid, what, "a symbolic link");
    try {
      info = Deno.statSync(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  }
  if (!info.isDirectory) {
    throw new UnsafeDirectoryError(
      path,
      `${path} should be a directory for ${what}, but it is not; move it away and run the command again`,
    );
  }
  if (info.uid !== uid) throw notOurs(path, info.uid, what, "a directory");
  const mode = info.mode ?? PRIVATE_DIR_MODE;
  if (mode & 0o022) {
    throw new UnsafeDirectoryError(
      path,
      `${path} holds ${what} but other users can write into it (mode ${
        octal(mode)
      }), so one of them could replace what is there; run \`chmod 700 ${path}\` and check what it holds`,
    );
  }
  if (mode & 0o077) Deno.chmodSync(path, PRIVATE_DIR_MODE);
  return true;
}

function notOurs(path: string, owner: number | null, what: string, kind: string): Error {
  return new UnsafeDirectoryError(
    path,
    `${path} holds ${what} but it is ${kind} owned by user ${owner}, not by you (user ${currentUid()}), ` +
      `so mcpx will not use it: another user could read or replace what is there. Remove it ` +
      `(or ask its owner to), or point mcpx elsewhere (\`MCPX_STATE_DIR\`, \`XDG_RUNTIME_DIR\`)`,
  );
}

/**
 * Creates `path` (and missing parents) as 0700 when absent, then holds it to
 * {@link checkPrivateDir}.
 *
 * @throws {UnsafeDirectoryError} as {@link checkPrivateDir}; a
 *   {@link Deno.errors} error when it cannot be created.
 */
export function ensurePrivateDir(path: string, what: string): void {
  if (checkPrivateDir(path, what)) return;
  try {
    Deno.mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw storageErrorOf(error, path) ?? error;
  }
  // mkdir's mode is narrowed by the umask, never widened; the check settles it either way.
  checkPrivateDir(path, what);
}

/**
 * Writes `data` to `path` atomically and privately: a temporary file beside it
 * (mode 0600, created new), fsync, then rename over `path`. A reader sees the
 * old file or the new one, never a part; on failure (a full disk, say) the
 * temporary file is removed and `path` keeps what it had.
 *
 * @throws {StorageError} naming `path` and the fix when the file system refuses
 *   (no space, quota, read-only, permission: errors.ts `STORAGE_CODES`); any other
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
