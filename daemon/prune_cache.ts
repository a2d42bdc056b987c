/**
 * The daemon's cache pruning, run once it answers and hourly after
 * (engine/cache_prune.ts decides what goes).
 *
 * @module
 */

import { log } from "../engine/log.ts";
import { describe } from "../engine/instance.ts";
import { pruneForDaemon } from "../engine/cache_prune.ts";

/** Prunes the cache, logging what went; a failure is logged, never the daemon's end. */
export function pruneCache(
  paths: { cacheDir: string; stateDir: string },
  fingerprint: string,
  maxAgeMs: number,
): void {
  try {
    const removed = pruneForDaemon(paths, fingerprint, maxAgeMs);
    if (removed.length) {
      log("info", "cache.pruned", "removed {count} unused cache entries", {
        count: removed.length,
        paths: removed.slice(0, 20),
      });
    }
  } catch (error) {
    log("error", "daemon.error", "pruning the cache failed: {error}", { error: describe(error) });
  }
}
