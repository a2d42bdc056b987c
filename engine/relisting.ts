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

import type { CachedServer, CachedTool } from "../discovery/types.ts";
import { listingOf, type ServerSpec } from "../config/types.ts";
import type { Instance } from "./instance.ts";
import type { ChangedList } from "./server_notifications.ts";
import { log } from "./log.ts";

/** What {@link relist} needs from the daemon's listings (engine/listings.ts). */
export interface RelistHost {
  /** The log span of an instance. */
  span(instance: Instance): string;
  /** The listing of a listed server name in progress, if any. */
  pending(name: string): Promise<unknown> | undefined;
  entry(spec: ServerSpec): CachedServer | undefined;
  /** Lists `spec` through `via` and stores the entry (a failure: answered, not stored). */
  list(spec: ServerSpec, via: Instance): Promise<CachedServer>;
  /** One relisting at a time per listed server name. */
  coalescer: Coalescer<string>;
}

/**
 * `instance` said one of its server's lists changed (`list_changed`): the
 * tools are listed again through that instance, after any listing in
 * progress, one at a time per server, a burst meanwhile costing one more
 * listing ({@link Coalescer}); then `catalog.changed` names the tools
 * added, removed and changed. Prompts and resources are not cached (they
 * are read when asked), so for them the record only says so. A listing
 * that fails here keeps the entry as it was (a warning says why), and an
 * instance already gone is not listed; a listing that finds the same
 * tools leaves the entry (and its `listedAt`) as it was.
 *
 * @returns Resolves once the listing asked for is stored; never rejects.
 */
export function relist(host: RelistHost, instance: Instance, list: ChangedList): Promise<void> {
  const spec = instance.spec;
  const span = host.span(instance);
  const about = { server: spec.name, namespace: spec.namespace, list, localId: instance.id };
  if (list !== "tools") {
    log("info", "catalog.changed", "{server} says its {list} changed; they are read when asked", {
      ...about,
    }, { span });
    return Promise.resolve();
  }
  const { name } = listingOf(spec);
  return host.coalescer.run(name, async () => {
    await host.pending(name)?.catch(() => {});
    if (instance.closed) return;
    const before = host.entry(spec)?.tools ?? [];
    const entry = await host.list(spec, instance);
    if (entry.error) return;
    const diff = catalogDiff(before, entry.tools);
    const count = diff.added.length + diff.removed.length + diff.changed.length;
    log(
      "info",
      "catalog.changed",
      count
        ? "{server} changed its tools: {added} added, {removed} removed, {changed} changed"
        : "{server} said its tools changed; listed again, none were added, removed or changed",
      { ...about, ...diff, tools: entry.tools.length },
      { span },
    );
  });
}

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
