/**
 * Keeps mcpx's cache from growing without end (issue 9, "Cache grows without
 * limit"; decision 0024). Every script run may add a launcher (and its `.ok`
 * mark), every new set of namespaces a generated client, every edit of a
 * configuration a schema cache and a compiled configuration, every
 * configuration a folder of `mcpx exec` programs; none of them were ever
 * removed. The daemon prunes them a second after its start and then hourly
 * on its reaper tick, never the CLI (its warm path stays a few reads).
 *
 * What goes, under `<cacheDir>`:
 *
 * | entry | removed when |
 * | --- | --- |
 * | `launchers/*` (launchers, `.boot.ts`, `.ok`, `check-*.ts`) | unused for `cache.maxAge` |
 * | `clients/*.ts` | unused for `cache.maxAge` |
 * | `schemas-<fp>.json`, `config-<fp>.json` | unused for `cache.maxAge`, and no live daemon serves `<fp>` |
 * | `schemas-<fp>/` (the servers' entries beside that index) | its index is gone, nothing in it used for `cache.maxAge`, and no live daemon serves `<fp>` |
 * | `exec/<fp>/exec-*` (a program and its run marks) | older than an hour: left by a run that was killed |
 * | `exec/<fp>/` | nothing in it used for `cache.maxAge`, and no live daemon serves `<fp>` |
 *
 * "Used" is the later of the file's modification and access times: where
 * the file system records reads (Linux's default `relatime` does, at most
 * daily) a launcher run every day is kept however old; where it does not
 * (`noatime`), an entry older than the limit is made again by the next run
 * that needs it, at the cost of generating it once. Whatever a run needs and
 * does not find, it writes again; a file removed while a runtime is already
 * running from it costs nothing (it was read at start).
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import { readDaemonRecords } from "../wire/locate.ts";
import { pidAlive } from "../core/pid_alive.ts";

/** How old a leftover `mcpx exec` program may get (ms): its run ended long ago. */
export const EXEC_LEFTOVER_MS = 3_600_000;

/** How often a daemon prunes (ms). */
export const PRUNE_PERIOD_MS = 3_600_000;

/** How long after its start a daemon first prunes (ms): once it has answered the CLI that started it. */
export const PRUNE_DELAY_MS = 1_000;

/** What {@link pruneCache} needs to know. */
export interface PruneOptions {
  /** `cache.maxAge` in ms; 0 keeps everything but leftover exec programs. */
  maxAgeMs: number;
  /** Fingerprints a live daemon serves (their caches are in use whatever their age). */
  live: ReadonlySet<string>;
  /** The time to compare with (ms since the epoch). */
  now?: number;
}

/** The later of a file's modification and access times (ms), or null when unknown. */
function lastUse(info: Deno.FileInfo): number | null {
  const times = [info.mtime, info.atime].filter((t): t is Date => t !== null);
  return times.length ? Math.max(...times.map((t) => t.getTime())) : null;
}

/** Entries of `dir` (none when it cannot be read). */
function entries(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
}

/** Removes `path` (recursively) unless it is gone already; true when removed. */
function remove(path: string, recursive = false): boolean {
  try {
    Deno.removeSync(path, { recursive });
    return true;
  } catch {
    return false; // gone meanwhile (another daemon prunes too), or not ours to remove
  }
}

/** Whether anything is at `path`. */
function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether `path` was last used before `before` (ms). */
function unusedSince(path: string, before: number): boolean {
  try {
    const used = lastUse(Deno.lstatSync(path));
    return used !== null && used < before;
  } catch {
    return false;
  }
}

/** True when a live fingerprint starts with `prefix` (exec folders use the first 16 digits). */
function served(live: ReadonlySet<string>, prefix: string): boolean {
  for (const fingerprint of live) if (fingerprint.startsWith(prefix)) return true;
  return false;
}

/**
 * Prunes `cacheDir` (see the module's table). Cheap: one directory listing
 * and one `lstat` per entry; removes only files of the shapes mcpx writes.
 *
 * @returns The paths removed.
 */
export function pruneCache(cacheDir: string, options: PruneOptions): string[] {
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  const drop = (path: string, recursive = false) => {
    if (remove(path, recursive)) removed.push(path);
  };
  const before = options.maxAgeMs > 0 ? now - options.maxAgeMs : -Infinity;

  for (const folder of ["launchers", "clients"]) {
    const dir = join(cacheDir, folder);
    for (const entry of entries(dir)) {
      const path = join(dir, entry.name);
      if (entry.isFile && unusedSince(path, before)) drop(path);
    }
  }
  for (const entry of entries(cacheDir)) {
    const m = /^(?:schemas|config)-([0-9a-f]+)\.json$/.exec(entry.name);
    if (!m || !entry.isFile || served(options.live, m[1])) continue;
    const path = join(cacheDir, entry.name);
    if (unusedSince(path, before)) drop(path);
  }
  // A server's entry is read only through its index: the folder goes once the index has.
  for (const entry of entries(cacheDir)) {
    const m = /^schemas-([0-9a-f]+)$/.exec(entry.name);
    if (!m || !entry.isDirectory || served(options.live, m[1])) continue;
    const dir = join(cacheDir, entry.name);
    if (exists(`${dir}.json`) || !unusedSince(dir, before)) continue;
    if (entries(dir).every((e) => unusedSince(join(dir, e.name), before))) drop(dir, true);
  }
  const execDir = join(cacheDir, "exec");
  for (const folder of entries(execDir)) {
    if (!folder.isDirectory || !/^[0-9a-f]+$/.test(folder.name)) continue;
    const dir = join(execDir, folder.name);
    // The folder's own time is its modification (an entry added or removed): listing it
    // touches its access time; taken before leftovers are removed from it.
    const changed = (() => {
      try {
        return Deno.lstatSync(dir).mtime?.getTime() ?? Infinity;
      } catch {
        return Infinity;
      }
    })();
    let newest = -Infinity;
    for (const entry of entries(dir)) {
      const path = join(dir, entry.name);
      if (entry.name.startsWith("exec-") && unusedSince(path, now - EXEC_LEFTOVER_MS)) {
        drop(path);
        continue;
      }
      try {
        newest = Math.max(newest, lastUse(Deno.lstatSync(path)) ?? Infinity);
      } catch { /* gone meanwhile */ }
    }
    if (!served(options.live, folder.name) && newest < before && changed < before) {
      drop(dir, true);
    }
  }
  return removed;
}

/**
 * What a daemon prunes: {@link pruneCache} with the fingerprints of every
 * live daemon (their records in `<stateDir>/daemons/`) and its own kept.
 *
 * @param maxAgeMs `cache.maxAge`.
 * @returns The paths removed.
 */
export function pruneForDaemon(
  dirs: { cacheDir: string; stateDir: string },
  fingerprint: string,
  maxAgeMs: number,
): string[] {
  const live = new Set([fingerprint]);
  for (const record of readDaemonRecords(dirs.stateDir)) {
    if (pidAlive(record.pid)) live.add(record.fingerprint);
  }
  return pruneCache(dirs.cacheDir, { maxAgeMs, live });
}
