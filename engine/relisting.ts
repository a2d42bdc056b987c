/**
 * Listing a server again when it says its tools changed
 * (`notifications/tools/list_changed`): one listing at a time per server,
 * and a burst of changes while one runs costs one more listing, not one
 * each ({@link Coalescer}); then a `catalog.changed` record names what the
 * new listing added, removed and changed ({@link catalogDiff}). Spec 000,
 * "The rest of the protocol"; decision 0034.
 *
 * @module
 */

import type { CachedTool } from "../discovery/types.ts";

/**
 * Runs at most one job per key at a time. A job asked for while one of its
 * key runs is run once more after it, however many times it was asked
 * meanwhile: every request sees a run that started after it.
 */
export class Coalescer<K> {
  #running = new Map<K, Promise<void>>();
  #again = new Set<K>();

  /**
   * Runs `job` for `key`, or, while one runs, once more after it.
   *
   * @returns Resolves once a run of `job` that began after this request has
   *   ended. Never rejects: a job's failure is its own to report.
   */
  run(key: K, job: () => Promise<void>): Promise<void> {
    const running = this.#running.get(key);
    if (running) {
      this.#again.add(key);
      return running;
    }
    const loop = async () => {
      do {
        this.#again.delete(key);
        try {
          await job();
        } catch { /* the job reports its own failure */ }
      } while (this.#again.has(key));
    };
    const done = loop().finally(() => this.#running.delete(key));
    this.#running.set(key, done);
    return done;
  }
}

/** What changed between two listings of a server, by tool name, each list sorted. */
export interface CatalogDiff {
  added: string[];
  removed: string[];
  /** Tools in both whose title, description, schemas or annotations differ. */
  changed: string[];
}

/** The tools `after` adds to, removes from and changes in `before`. */
export function catalogDiff(before: CachedTool[], after: CachedTool[]): CatalogDiff {
  const was = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  const added = [...now.keys()].filter((n) => !was.has(n)).sort();
  const removed = [...was.keys()].filter((n) => !now.has(n)).sort();
  const changed = [...now.keys()]
    .filter((n) => was.has(n) && shape(was.get(n)!) !== shape(now.get(n)!))
    .sort();
  return { added, removed, changed };
}

/** A tool as the server described it (not mcpx's declaration of it). */
function shape(tool: CachedTool): string {
  const { title, description, inputSchema, outputSchema, annotations } = tool;
  return JSON.stringify([title, description, inputSchema, outputSchema, annotations]);
}
