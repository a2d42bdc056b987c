/**
 * Reading and recording one server's schema-cache entry: its latest listing
 * failure, and when discovery may try to list it again.
 *
 * A failed listing records its error and no `listedAt` (spec 000, "Honest
 * failure reporting": otherwise a server that never started would read as
 * "cached, 0 tools"), plus how many listings in a row failed and when the
 * next may be tried. Keeping that in the cache file, not in a daemon's
 * memory, makes the cooldown hold across commands and across a daemon
 * restart: `ls`, `search` and `catalog` do not start a broken server every
 * time they run (issue 8).
 *
 * @module
 */

import type { CachedServer, IndexedServer } from "./types.ts";

/** The failure of a listing as the cache keeps it. */
export type ListingFailure = NonNullable<CachedServer["error"]>;

/** Cooldown after the first failed listing before discovery lists again, in ms. */
export const LISTING_RETRY_FIRST_MS = 30_000;
/** Longest cooldown between discovery's listings of a failing server, in ms (30 min). */
export const LISTING_RETRY_MAX_MS = 30 * 60_000;

/**
 * The layout of the declarations discovery/typescript.ts writes into the
 * cache (`CachedTool.declaration`). Raised when that layout changes, so a
 * cache written in an older layout by the same mcpx version has its
 * declarations regenerated rather than shown as they were. 3: a property
 * named `*\/` no longer keeps a signature from rendering, and one that cannot
 * be rendered points at `mcpx --json types` for the schema.
 */
export const DECLARATION_FORMAT = 3;

/**
 * What a listing keeps of a server's tools (engine/tool_listing.ts), stamped
 * on the index and on each server's file. Raised when that changes, so an
 * entry an older layout stored is listed again rather than shown as it was.
 * 2: a tool that runs only as a task is kept callable (issue 12), where 1
 * stored it among the skipped tools with a reason that is no longer true.
 * 3: mcpx declares elicitation and sampling (issue 13, decision 0040), and a
 * server may list tools by what its client declares (server-everything lists
 * its elicitation and sampling tools only then), so what an older mcpx listed
 * without them is listed again. Raise it whenever the declared client
 * capabilities change.
 */
export const LISTING_FORMAT = 3;

/**
 * The entry's listing failure when it is the latest news about the server
 * (newer than its last successful listing), else undefined. A failure older
 * than a success is history, not state.
 *
 * @param entry The server's cache entry, if any.
 * @returns The failure, or undefined.
 * @example
 * ```ts
 * import { lastFailure } from "./cache_entry.ts";
 * const error = { message: "boom", at: "2026-01-02T00:00:00Z" };
 * if (lastFailure({ error }) !== error) throw new Error();
 * ```
 */
export function lastFailure(
  entry: Pick<IndexedServer, "error" | "listedAt"> | undefined,
): ListingFailure | undefined {
  const error = entry?.error;
  return error && error.at >= (entry?.listedAt ?? "") ? error : undefined;
}

/**
 * The cooldown after `count` listings in a row failed: 30 s, doubling per
 * failure, at most 30 min.
 *
 * @param count Consecutive failures, ≥ 1.
 * @returns Milliseconds.
 * @example
 * ```ts
 * import { listingRetryMs } from "./cache_entry.ts";
 * if (listingRetryMs(1) !== 30_000 || listingRetryMs(2) !== 60_000) throw new Error();
 * ```
 */
export function listingRetryMs(count: number): number {
  const n = Math.max(1, Math.floor(count));
  return Math.min(LISTING_RETRY_MAX_MS, LISTING_RETRY_FIRST_MS * 2 ** Math.min(n - 1, 30));
}

/**
 * The error a failed listing records: the message (and stderr tail), the
 * time, how many listings in a row have failed (counting the previous entry's
 * failure when no success came after it) and when the next may be tried.
 *
 * @param previous The entry before this listing, if any.
 * @param failure What went wrong: `message`, and the server's `stderr` tail when known.
 * @param now The time of the failure, in ms since the epoch.
 * @returns The `error` of the new entry.
 * @example
 * ```ts
 * import { failedListing } from "./cache_entry.ts";
 * const first = failedListing(undefined, { message: "boom" }, 0);
 * const second = failedListing({ tools: [], error: first }, { message: "boom" }, 1000);
 * if (first.count !== 1 || second.count !== 2) throw new Error();
 * ```
 */
export function failedListing(
  previous: IndexedServer | undefined,
  failure: { message: string; stderr?: string },
  now: number,
): ListingFailure {
  const count = (lastFailure(previous)?.count ?? (lastFailure(previous) ? 1 : 0)) + 1;
  return {
    message: failure.message,
    at: new Date(now).toISOString(),
    ...(failure.stderr ? { stderr: failure.stderr } : {}),
    count,
    retryAt: new Date(now + listingRetryMs(count)).toISOString(),
  };
}

/**
 * Whether discovery may list a server whose last listing failed: once the
 * failure's `retryAt` has passed. An entry written before `retryAt` existed
 * is due 30 s after its failure.
 *
 * @param failure The entry's {@link lastFailure}.
 * @param now The time, in ms since the epoch.
 * @returns True when the cooldown is over.
 */
export function listingRetryDue(failure: ListingFailure, now: number): boolean {
  const retryAt = failure.retryAt
    ? Date.parse(failure.retryAt)
    : Date.parse(failure.at) + listingRetryMs(failure.count ?? 1);
  return !(now < retryAt);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);
const isString = (v: unknown) => typeof v === "string";
const isCount = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;
/** A check of a list whose every item passes `item`. */
const listOf = (item: (v: Record<string, unknown>) => boolean) => (v: unknown) =>
  Array.isArray(v) && v.every((x) => isObject(x) && item(x));

/** True for a tool as `tools/list` gave it: a name, an input schema, the optional fields typed. */
function isCachedTool(v: unknown): boolean {
  return isObject(v) && isString(v.name) && isObject(v.inputSchema) &&
    optional(v.title, isString) && optional(v.description, isString) &&
    optional(v.outputSchema, isObject) && optional(v.annotations, isObject) &&
    optional(v.declaration, isString);
}

function isFailure(v: unknown): boolean {
  return isObject(v) && isString(v.message) && isString(v.at) && optional(v.stderr, isString) &&
    optional(v.count, isCount) && optional(v.retryAt, isString);
}

/**
 * One server's entry as read from a cache file, or undefined when it does not
 * have the shape mcpx writes ({@link CachedServer}): a file edited by hand,
 * damaged, or written by something else. The caller treats such an entry as
 * absent, so the server is listed again, while the file's other entries are
 * used as they are (issue 9: a wrong shape costs that entry, never the file,
 * the command or another configuration's daemon).
 *
 * @param value An entry of the file's `servers` object.
 * @returns The entry, typed, or undefined.
 * @example
 * ```ts
 * import { cachedServerOf } from "./cache_entry.ts";
 * if (cachedServerOf(null) !== undefined) throw new Error();
 * if (!cachedServerOf({ tools: [{ name: "t", inputSchema: {} }] })) throw new Error();
 * ```
 */
export function cachedServerOf(value: unknown): CachedServer | undefined {
  return serverOf(value, isCachedTool) as CachedServer | undefined;
}

/** True for a tool as the index holds it: a name, the optional fields typed, no schema needed. */
function isIndexedTool(v: unknown): boolean {
  return isObject(v) && isString(v.name) && optional(v.title, isString) &&
    optional(v.description, isString) &&
    optional(v.terms, (t) => isObject(t) && isString(t.name) && isString(t.description));
}

/**
 * One server's entry as read from the cache's index (discovery/types.ts
 * `IndexedServer`: its tools without schemas), or undefined when it does not
 * have the shape mcpx writes; the caller treats it as absent, as
 * {@link cachedServerOf} does.
 *
 * @param value An entry of the index's `servers` object.
 * @returns The entry, typed (its `file` is not checked here), or undefined.
 * @example
 * ```ts
 * import { indexedServerOf } from "./cache_entry.ts";
 * if (!indexedServerOf({ tools: [{ name: "t" }] })) throw new Error();
 * if (indexedServerOf({ tools: [{ name: 1 }] }) !== undefined) throw new Error();
 * ```
 */
export function indexedServerOf(value: unknown): IndexedServer | undefined {
  return serverOf(value, isIndexedTool);
}

function serverOf(value: unknown, isTool: (v: unknown) => boolean): IndexedServer | undefined {
  if (!isObject(value) || !Array.isArray(value.tools) || !value.tools.every(isTool)) {
    return undefined;
  }
  const info = value.serverInfo;
  const ok = optional(value.listedAt, isString) && optional(value.instructions, isString) &&
    optional(value.listingId, isString) && optional(value.protocol, isString) &&
    optional(value.subscribe, (v) => v === true) && optional(value.error, isFailure) &&
    optional(
      info,
      (i) =>
        isObject(i) && optional(i.name, isString) && optional(i.version, isString) &&
        optional(i.title, isString),
    ) &&
    optional(value.blocks, listOf((b) => isString(b.key) && isCount(b.bytes))) &&
    optional(value.rendered, listOf((b) => isString(b.key) && isString(b.text))) &&
    optional(value.skipped, listOf((s) => isString(s.name) && isString(s.reason)));
  return ok ? value as unknown as IndexedServer : undefined;
}

/**
 * What a surface may read of a server's cache entry besides its tools: its
 * listing's facts (when, which server, protocol, instructions, failure).
 * Tools are left out on purpose: the cache holds the server's whole listing,
 * shared by every alias of it, and only the namespace view
 * (discovery/view.ts) knows which of them a namespace's filter shows (issue
 * 24, "Listings obey filters on every surface").
 */
export type ServerFacts = Omit<IndexedServer, "tools" | "skipped" | "blocks" | "rendered" | "file">;

/**
 * The {@link ServerFacts} of an entry: a copy without its tools, skipped
 * tools or rendered declarations, so a surface given it cannot list what the
 * configuration hides.
 *
 * @param entry A cache entry (whole or from the index), or undefined.
 * @returns Its facts, or undefined when there is no entry.
 * @example
 * ```ts
 * import { factsOf } from "./cache_entry.ts";
 * const facts = factsOf({ tools: [{ name: "t" }], instructions: "hi" });
 * if (facts === undefined || "tools" in facts) throw new Error();
 * ```
 */
export function factsOf(entry: IndexedServer | undefined): ServerFacts | undefined {
  if (entry === undefined) return undefined;
  const { tools: _t, skipped: _s, blocks: _b, rendered: _r, file: _f, ...facts } = entry;
  return facts;
}
