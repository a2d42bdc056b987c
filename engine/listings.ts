/**
 * The schema cache as the daemon holds it: read (and seeded from sibling
 * caches) at start, filled by listing servers (`tools/list` through a pool's
 * instance, one listing per server at a time), written after every change,
 * and shown to each profile selection as a namespace view.
 *
 * A listing stores its tools as soon as the server answered, and gives its
 * instance back first; the tools' TypeScript declarations are made after,
 * in the type generator's process (engine/type_generator.ts), and written
 * into the same entry when they come back (decision 0029). Until then a
 * reader that needs a declaration makes it itself (discovery/typescript.ts
 * `entryDeclaration`).
 *
 * @module
 */

import { listingOf, type LoadedConfig, type ServerSpec } from "../config/types.ts";
import type {
  CachedServer,
  CachedTool,
  SchemaCacheFile,
  StartingListing,
} from "../discovery/types.ts";
import type { DeclarationRequest } from "../discovery/declarations_wire.ts";
import { ServerError } from "../core/errors.ts";
import { toIdentifier } from "../config/identifiers.ts";
import { failedListing, lastFailure } from "../discovery/cache_entry.ts";
import { namespacesFromCache, type NamespaceView } from "../discovery/view.ts";
import { toolTerms } from "../discovery/search.ts";
import { type ProfileSelection, selectionKey } from "../config/profiles.ts";
import type { Redactor } from "../core/redact.ts";
import { own, setOwn } from "../core/own.ts";
import type { Instance } from "./instance.ts";
import type { Pool } from "./pool.ts";
import type { CallerContext } from "./scope_key.ts";
import {
  emptySchemaCache,
  needsListing,
  readSchemaCache,
  readServerEntry,
  seedFromSiblings,
  writeSchemaCache,
} from "./schema_cache.ts";
import { elapsedMs, log } from "./log.ts";
import { boundedText, describe, messageOf } from "./error_text.ts";
import type { ListedBy, ListingWait, ListResult } from "./tool_listing.ts";
import { TypeGenerationError, TypeGenerator } from "./type_generator.ts";
import { keepBlocks, laidOutBlocks } from "./block_sizes.ts";
import { catalogDiff, Coalescer, relist } from "./relisting.ts";
import { listedUnder, type StartingInstances, startInProgress } from "./starting.ts";
import { settledWithin } from "../core/settled_within.ts";
import type { ChangedList } from "./server_notifications.ts";

/** What {@linkcode Listings} needs from the daemon. */
export interface ListingsOptions {
  config: LoadedConfig;
  /**
   * The cache's index (`schemas-<fingerprint>.json`; its servers' files are in
   * `schemas-<fingerprint>/`); its folder holds the siblings.
   */
  cachePath: string;
  /** Replaces secrets with their references in the file (decision 0017). */
  redactor: Redactor;
  /** The pool a server is listed through. */
  pool(spec: ServerSpec): Pool;
  /** The log span of an instance (engine/instance_events.ts). */
  span(instance: Instance): string;
  /**
   * Makes the listed tools' declarations (engine/type_generator.ts); default:
   * a generator process per listing. Closed with the listings.
   */
  typeGenerator?: TypeGenerator;
  /** The daemon's server starts in progress (engine/starting.ts), for {@link Listings.startInProgress}. */
  starts?: StartingInstances;
  /** Writes the cache's changed entries and its index (a test seam); default: `writeSchemaCache`. */
  write?: typeof writeSchemaCache;
}

/** The daemon's schema cache and the listings that fill it. */
export class Listings {
  #options: ListingsOptions;
  #cache: SchemaCacheFile;
  #write: Promise<void> = Promise.resolve();
  /** A write is queued behind the one under way and has not taken its copy of the cache yet. */
  #writeQueued = false;
  /** The last write's failure, until a write succeeds (a full disk). */
  #writeError: unknown;
  /** Listings in progress, by listed server name. */
  #listing = new Map<string, Promise<CachedServer>>();
  /** When each listing in progress began (epoch ms), by listed server name. */
  #listingSince = new Map<string, number>();
  /**
   * Per listed server name: the process its latest listing went through when that
   * process was already running before the listing began (a fresh start is absent).
   */
  #listedBy = new Map<string, ListedBy>();
  /** Servers whose entries changed since the last write: their files are written again. */
  #dirty = new Set<string>();
  /** What each profile selection shows of the cache (emptied whenever the cache changes). */
  #views = new Map<string, NamespaceView>();
  #types: TypeGenerator;
  /** Declarations being made for stored listings (settled, never rejected). */
  #declaring = new Set<Promise<void>>();
  /** Listings asked for by a server's `list_changed`, one at a time per listed server. */
  #relists = new Coalescer<string>();

  /**
   * Reads the cache whole, the index and every server's file (an empty cache
   * when it is missing, damaged or of an earlier layout; an entry whose file
   * is damaged is left out), and seeds it from siblings.
   */
  constructor(options: ListingsOptions) {
    this.#options = options;
    this.#types = options.typeGenerator ?? new TypeGenerator();
    const { config, cachePath } = options;
    this.#cache = readSchemaCache(cachePath) ?? emptySchemaCache(config.path);
    const cacheDir = cachePath.slice(0, cachePath.lastIndexOf("/"));
    const specs = config.servers.map((s) => ({ ...listingOf(s), disabled: s.disabled }));
    const whole = (e: { file?: string }) => e.file ? readServerEntry(e.file) : undefined;
    const before = new Set(Object.keys(this.#cache.servers));
    if (seedFromSiblings(cacheDir, config.fingerprint, this.#cache, specs, whole)) {
      for (const name of Object.keys(this.#cache.servers)) {
        if (!before.has(name)) this.#dirty.add(name);
      }
      this.#persist();
    }
  }

  /** The cache entry `spec` reads (an alias reads its target's: config/types.ts `listingOf()`). */
  entry(spec: ServerSpec): CachedServer | undefined {
    return own(this.#cache.servers, listingOf(spec).name);
  }

  /** Whether `spec` has no usable entry (none, another listing identity, a failure due a retry). */
  needsListing(spec: ServerSpec): boolean {
    return needsListing(this.entry(spec), listingOf(spec).listingId);
  }

  /** The namespaces `selection` shows of the cache, built once per cache change. */
  view(selection: ProfileSelection): NamespaceView {
    const key = selectionKey(selection);
    let view = this.#views.get(key);
    if (!view) {
      view = namespacesFromCache(this.#options.config.servers, this.#cache, selection);
      // The words search matches, worked out once per cache change as the index stores them
      // (the entries held whole have none): a search would otherwise split and stem every
      // tool's name and description again, ~15 ms for 1,600 tools.
      for (const ns of view.namespaces) {
        for (const tool of ns.tools) {
          tool.terms ??= toolTerms({ name: tool.tool, description: tool.description });
        }
      }
      this.#views.set(key, view);
    }
    return view;
  }

  /**
   * Lists `spec` and stores the entry; joins a listing of the same server in
   * progress. A failure is stored as the entry's `error` (and resolves).
   *
   * @param via The instance to list through (a `list_changed` from it);
   *   default: one leased from the server's pool. A listing through `via`
   *   that fails stores nothing: its entry is answered with the error.
   */
  list(spec: ServerSpec, via?: Instance): Promise<CachedServer> {
    const { name } = listingOf(spec);
    const pending = this.#listing.get(name);
    if (pending) return pending;
    const promise = this.#listNow(spec, via).finally(() => {
      this.#listing.delete(name);
      this.#listingSince.delete(name);
      this.#listingOnWord.delete(name);
    });
    this.#listing.set(name, promise);
    this.#listingSince.set(name, Date.now());
    if (via) this.#listingOnWord.add(name);
    return promise;
  }

  /** The listings in progress that are on a server's word (through `via`), by listing name. */
  #listingOnWord = new Set<string>();

  /**
   * Lists `spec` for `mcpx refresh`: a listing in progress is joined, but
   * one on the server's word (a `list_changed`) stores nothing when the tools
   * are the same, or when it fails: once it ends, the server is listed again,
   * so a refresh always stores a listing of its own.
   */
  async #listForRefresh(spec: ServerSpec): Promise<CachedServer> {
    const onWord = this.#listingOnWord.has(listingOf(spec).name);
    const entry = await this.list(spec);
    return onWord ? await this.list(spec) : entry;
  }

  /** A start of `spec` under way, or its listing waiting for one (`status`, discovery; decision 0010). */
  startInProgress(spec: ServerSpec, now = Date.now()): StartingListing | undefined {
    return startInProgress(spec, {
      listingSince: this.listingSince(spec),
      listed: listedUnder(this.entry(spec), listingOf(spec).listingId),
      rows: this.#options.starts?.rows(now) ?? [],
      now,
    });
  }

  /** When `spec`'s listing in progress began (epoch ms); none in progress: undefined. */
  listingSince(spec: ServerSpec): number | undefined {
    return this.#listingSince.get(listingOf(spec).name);
  }

  /**
   * Lists servers for the daemon's `list` operation (`mcpx refresh`).
   *
   * @param refused Why a server may not start (unavailable, untrusted); it is not listed.
   * @param missingOnly Only servers with no usable cache entry.
   * @param wait How long to wait for the listings (absent: until each ends);
   *   one still in progress then goes on and is answered as `starting`.
   * @returns Per server name: tools count or the error message, and
   *   `listedBy` when the listing went through a process already running;
   *   `starting` for a listing not waited for to its end.
   * @throws The cache write's error when a listing could not be stored (a full disk).
   */
  async refresh(
    specs: ServerSpec[],
    refused: (spec: ServerSpec) => { message: string } | undefined,
    missingOnly: boolean,
    wait?: ListingWait,
  ): Promise<Record<string, ListResult>> {
    const out: Record<string, ListResult> = {};
    for (const spec of specs) {
      const why = refused(spec);
      if (why) setOwn(out, spec.name, { error: why.message });
    }
    const todo = specs.filter((s) => !refused(s) && (!missingOnly || this.needsListing(s)));
    // Asked for entries this daemon holds: the files lost them (damaged, deleted), so write them again.
    if (todo.length < specs.filter((s) => !refused(s)).length) {
      for (const spec of specs) if (!refused(spec)) this.#dirty.add(listingOf(spec).name);
      this.#persist();
    }
    const results = await Promise.all(todo.map((spec) => {
      // The grace counts from the listing's start, whoever started it; a joiner may ask for more.
      const age = Date.now() - (this.listingSince(spec) ?? Date.now());
      const listing = this.#listForRefresh(spec);
      return wait ? settledWithin(listing, Math.max(wait.joinedMs, wait.startedMs - age)) : listing;
    }));
    await this.#write;
    // Discovery reads the file: a listing it cannot store (a full disk) is an error, said as one.
    if (todo.length && this.#writeError) throw this.#writeError;
    const now = Date.now();
    todo.forEach((spec, i) => {
      const going = results[i] ? undefined : this.startInProgress(spec, now);
      if (going) {
        const { server: _server, namespace: _namespace, ...starting } = going;
        return setOwn(out, spec.name, { starting });
      }
      // Not waited for, and ended since: its entry is stored.
      const entry = results[i] ?? this.entry(spec);
      if (!entry) return setOwn(out, spec.name, { error: `${spec.name} is still being listed` });
      const failure = lastFailure(entry);
      const by = this.#listedBy.get(listingOf(spec).name);
      setOwn(
        out,
        spec.name,
        failure
          ? { error: failure.message }
          : { tools: entry.tools.length, ...(by ? { listedBy: by } : {}) },
      );
    });
    return out;
  }

  /**
   * An instance of `spec` started: lists it again when the cache has nothing
   * for it, or only a failure (the server works now), unless a listing runs.
   */
  started(spec: ServerSpec): void {
    const failedBefore = lastFailure(this.entry(spec)) !== undefined;
    if ((this.needsListing(spec) || failedBefore) && !this.#listing.has(listingOf(spec).name)) {
      queueMicrotask(() => this.list(spec).catch(() => {}));
    }
  }

  /**
   * `instance` said one of its server's lists changed (`list_changed`): its
   * tools are listed again through it (engine/relisting.ts `relist`).
   *
   * @returns Resolves once the listing asked for is stored; never rejects.
   */
  relist(instance: Instance, list: ChangedList): Promise<void> {
    return relist(
      {
        span: (i) => this.#options.span(i),
        pending: (name) => this.#listing.get(name),
        entry: (spec) => this.entry(spec),
        list: (spec, via) => this.list(spec, via),
        coalescer: this.#relists,
      },
      instance,
      list,
    );
  }

  /** Resolves once the cache file holds every change so far. */
  async flush(): Promise<void> {
    await this.#write;
  }

  /**
   * Resolves once every listing stored so far has its declarations in the
   * cache file, or has given them up (a `server.types` record says why).
   */
  async declared(): Promise<void> {
    while (this.#declaring.size) await Promise.all(this.#declaring);
    await this.#write;
  }

  /**
   * Stops the type generator: a listing waiting for declarations stores its
   * tools without them. Call before {@link flush} when the daemon stops.
   */
  async close(): Promise<void> {
    await this.#types[Symbol.asyncDispose]();
    while (this.#declaring.size) await Promise.all(this.#declaring);
  }

  async #listNow(spec: ServerSpec, via?: Instance): Promise<CachedServer> {
    const pool = this.#options.pool(spec);
    const listing = listingOf(spec);
    const previous = own(this.#cache.servers, listing.name);
    let entry: CachedServer;
    let span: string | undefined;
    // A global server lists through the instance calls will use; any other
    // scope lists through a throwaway per-call instance.
    const ctx: CallerContext = {};
    const asked = performance.now();
    const askedAt = Date.now();
    this.#listedBy.delete(listing.name);
    try {
      // Listing is not a caller: it waits for a call in flight, not for a run's whole hold.
      const leased = via ? undefined : await pool.lease(ctx, { ignoreRunHolds: true });
      const lease = { instance: via ?? leased!.instance, release: () => leased?.release() };
      try {
        const { tools, skipped } = await lease.instance.listTools();
        if (lease.instance.startedAt < askedAt) {
          this.#listedBy.set(listing.name, {
            ...(lease.instance.pid ? { pid: lease.instance.pid } : {}),
            startedAt: new Date(lease.instance.startedAt).toISOString(),
          });
        }
        span = this.#options.span(lease.instance);
        log("info", "server.list", "listed {server}: {tools} tools in {ms} ms", {
          server: spec.name,
          tools: tools.length,
          ms: elapsedMs(asked),
        }, { span });
        if (skipped.length) {
          log("warn", "server.skip", "{server}: {count} malformed tools skipped", {
            server: spec.name,
            count: skipped.length,
            skipped,
          }, { span });
        }
        const info = lease.instance.client.getServerVersion();
        const instructions = lease.instance.client.getInstructions();
        const resources = lease.instance.client.getServerCapabilities()?.resources as
          | { subscribe?: boolean }
          | undefined;
        entry = {
          listedAt: new Date().toISOString(),
          listingId: listing.listingId,
          ...(info
            ? { serverInfo: { name: info.name, version: info.version, title: info.title } }
            : {}),
          ...(lease.instance.protocolRevision ? { protocol: lease.instance.protocolRevision } : {}),
          ...(resources?.subscribe === true ? { subscribe: true as const } : {}),
          ...(instructions ? { instructions } : {}),
          tools,
          ...(skipped.length ? { skipped } : {}),
        };
        keepBlocks(entry, await laidOutBlocks(this.#options.config.servers, listing.name, entry));
      } finally {
        lease.release();
        if (leased && lease.instance.scopeKey.kind === "call") {
          await lease.instance.close("stop");
        }
      }
    } catch (error) {
      const stderr = error instanceof ServerError ? error.stderrTail : undefined;
      const same = previous?.listingId === listing.listingId ? previous : undefined;
      // The failure, how many in a row and when discovery may try again; no
      // `listedAt` (discovery/cache_entry.ts), so it never reads as "0 tools".
      entry = {
        ...(same?.listedAt
          ? {
            listedAt: same.listedAt,
            tools: same.tools,
            serverInfo: same.serverInfo,
            ...(same.protocol ? { protocol: same.protocol } : {}),
            ...(same.subscribe ? { subscribe: same.subscribe } : {}),
          }
          : { tools: [] }),
        listingId: listing.listingId,
        error: failedListing(same, { message: messageOf(error), stderr }, Date.now()),
      };
      log("warn", "server.list", "listing {server} failed: {error}", {
        server: spec.name,
        error: boundedText(messageOf(error)),
      });
      // Listing again on a server's word: its failure does not make a working server's entry a failure.
      if (via) return entry;
    }
    // Listed again on a server's word with nothing different: the entry stands, unwritten.
    if (
      via && previous?.listedAt && !previous.error && previous.listingId === listing.listingId &&
      sameTools(previous.tools, entry.tools)
    ) {
      return previous;
    }
    setOwn(this.#cache.servers, listing.name, entry);
    this.#dirty.add(listing.name);
    this.#persist();
    // After the instance was given back: a generator that is slow to load (a
    // cold module cache fetches json-schema-to-typescript) holds no instance.
    if (span !== undefined && entry.tools.length) {
      const declaring = this.#addDeclarations(spec.name, listing.name, entry, span);
      this.#declaring.add(declaring);
      declaring.finally(() => this.#declaring.delete(declaring));
    }
    return entry;
  }

  /**
   * Adds each tool's TypeScript declaration, made by the type generator's
   * process, to `entry` and writes the cache again, unless a later listing
   * replaced `entry` meanwhile. When that process fails, the tools stay
   * without declarations (`mcpx types` makes them when asked) and the
   * failure is a `server.types` warning naming the server. Never rejects.
   */
  async #addDeclarations(
    server: string,
    listed: string,
    entry: CachedServer,
    span: string,
  ): Promise<void> {
    const tools = entry.tools;
    try {
      const declarations = await this.#types.declare(tools.map(declarationRequest));
      if (own(this.#cache.servers, listed) !== entry) return;
      declarations.forEach((text, i) => {
        if (text !== null) tools[i].declaration = text;
      });
      if (tools.every((t) => t.declaration !== undefined)) {
        const laid = await laidOutBlocks(this.#options.config.servers, listed, entry);
        if (own(this.#cache.servers, listed) !== entry) return;
        keepBlocks(entry, laid);
      }
      this.#dirty.add(listed);
      this.#persist();
    } catch (error) {
      const failure = error instanceof TypeGenerationError ? error : undefined;
      log(
        failure?.reason === "stopped" ? "info" : "warn",
        "server.types",
        "{server}: TypeScript declarations not stored: {error}; `mcpx types` makes them when asked",
        {
          server,
          reason: failure?.reason ?? "crashed",
          error: messageOf(error),
          ...(failure?.stderrTail ? { stderr: failure.stderrTail } : {}),
        },
        { span },
      );
    }
  }

  #persist(): void {
    this.#views.clear();
    // One write waits at a time and takes the cache as it is when it starts: a burst of
    // listings (100 servers at once) is a few writes, not one whole copy of the cache each.
    if (this.#writeQueued) return;
    this.#writeQueued = true;
    this.#write = this.#write.then(async () => {
      this.#writeQueued = false;
      const snapshot = structuredClone(this.#cache);
      const changed = [...this.#dirty];
      this.#dirty.clear();
      try {
        const write = this.#options.write ?? writeSchemaCache;
        await write(this.#options.cachePath, snapshot, this.#options.redactor, changed);
        this.#writeError = undefined;
      } catch (error) {
        // What was not written is written by the next change.
        for (const name of changed) this.#dirty.add(name);
        this.#writeError = error;
        log("error", "daemon.error", "writing the schema cache failed: {error}", {
          error: describe(error),
        });
      }
    });
  }
}

/** Whether two listings hold the same tools, as the server described them (engine/relisting.ts). */
function sameTools(before: CachedTool[], after: CachedTool[]): boolean {
  const diff = catalogDiff(before, after);
  return diff.added.length + diff.removed.length + diff.changed.length === 0;
}

/** The fields of a tool its declaration is made from (discovery/declarations_wire.ts). */
function declarationRequest(tool: CachedTool): DeclarationRequest {
  const { name, title, description, inputSchema, outputSchema } = tool;
  return { fn: toIdentifier(name), tool: { name, title, description, inputSchema, outputSchema } };
}
