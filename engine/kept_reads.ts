/**
 * What a long-lived process that only reads the schema cache (the front,
 * cli/relay/front.ts; decision 0068) keeps of the files it has read: a
 * file's parsed value, reused while the file is the same one. The cache is
 * written by renaming a new file into place (engine/schema_cache.ts), so a
 * rewritten file has a new inode: a value is reused only while the path's
 * inode, size and modification time are those it was read with.
 *
 * Off unless {@link keepReads} was called: the daemon and a whole `mcpx`
 * process read each file as they always did. A kept value is frozen, deeply:
 * it is shared by every command that reads the file, and a command that
 * tried to change it would fail at once rather than change the next
 * command's answer.
 *
 * @module
 */

interface Kept {
  ino: number | null;
  size: number;
  mtimeMs: number | undefined;
  value: unknown;
}

/** Most files kept; the oldest read goes first. */
const MAX_KEPT = 1024;

let kept: Map<string, Kept> | undefined;

/** Turns keeping on for this process (the front calls it once, at start). */
export function keepReads(): void {
  kept ??= new Map();
}

/**
 * `read()`'s value for the file at `path`: a kept one while the file is
 * unchanged (when keeping is on), else read now (and kept, frozen).
 *
 * @param path The file `read` reads.
 * @param read Reads and parses it; its value must not depend on anything but the file.
 */
export function keptRead<T>(path: string, read: () => T): T {
  if (!kept) return read();
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch {
    return read();
  }
  const known = kept.get(path);
  const mtimeMs = info.mtime?.getTime();
  if (known && known.ino === info.ino && known.size === info.size && known.mtimeMs === mtimeMs) {
    // Read again, it goes last: the map's order is the order of use.
    kept.delete(path);
    kept.set(path, known);
    return known.value as T;
  }
  const value = deepFreeze(read());
  kept.delete(path);
  kept.set(path, { ino: info.ino, size: info.size, mtimeMs, value });
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  return value;
}

/** `value` with every object and array it reaches frozen. */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
