/**
 * What a command needs, resolved lazily and at most once: the configuration,
 * the settings, the directories, the schema cache, and the daemon. The
 * configuration side is cli/context_settings.ts and the daemon side
 * cli/context_daemon.ts; the namespaces view, which needs both, is here.
 *
 * @module
 */

import { noConfigMessage } from "../config/discover.ts";
import { listingOf, type ServerSpec } from "../config/types.ts";
import { checkSelection, isSelected, selectionFromSettings } from "../config/profiles.ts";
import type { SchemaIndex, StartingListing } from "../discovery/types.ts";
import type { ListingWait, ListResult } from "../engine/tool_listing.ts";
import { findNamespace, namespacesFromCache, type NamespaceView } from "../discovery/view.ts";
import { factsOf, type ServerFacts } from "../discovery/cache_entry.ts";
import {
  emptySchemaCache,
  entryFileName,
  loadEntries,
  needsListing,
  schemaCachePath,
  schemaEntriesDir,
  seedFromSiblings,
} from "../engine/schema_cache.ts";
import { join } from "../core/posix_path.ts";
import { VERSION } from "../core/version.ts";
import { DaemonUnavailableError, McpxError } from "../core/errors.ts";
import { own, setOwn } from "../core/own.ts";
import type { RunnerHost } from "../runner/host.ts";
import { SettingsContext } from "./context_settings.ts";
import { DaemonLink, type DaemonRequestOptions } from "./context_daemon.ts";

export type { ContextOptions } from "./context_settings.ts";

/**
 * The lazily resolved world of one command: {@link SettingsContext}'s
 * configuration and settings, a {@link DaemonLink} to the daemon, and the
 * namespaces view built from both. It is also what a script run is given
 * (runner/host.ts).
 */
export class CliContext extends SettingsContext implements RunnerHost {
  readonly #daemon: DaemonLink = new DaemonLink(this);
  /** The schema cache's index as {@link namespaces} last read it; undefined: not read yet. */
  #index: SchemaIndex | null | undefined;

  /**
   * The visible namespaces from the schema cache: the servers of the profile
   * selection (`--profile`, `--skip-default`, `--all-profiles`; config/profiles.ts).
   * Selected servers with no usable entry are listed first through the daemon
   * (once; the result is cached); an alias reads its target's entry.
   * @param options.listMissing false: show what the cache has, list nothing.
   * @param options.optional true: with no configuration file, an empty view;
   *   otherwise that is an error, since a command that names a namespace
   *   cannot do anything without one.
   * @param options.schemas Whose tools come with their schemas and
   *   declarations: true (the default) every namespace's; a list, the
   *   namespaces it names (identifiers or server names); false, none. The
   *   others' come from the cache's index alone (`summary`; decision 0028),
   *   so `ls` and `search` read one file however many servers there are.
   * @param options.wait How long to wait for those listings (absent: until
   *   each ends); the ones still in progress are the view's `starting`
   *   (decision 0010).
   * @throws {UsageError} For a profile no server has.
   * @throws {McpxError} Code `no-config` when no configuration file was found
   *   (and not `optional`): says where the search looked and how to make one.
   */
  async namespaces(
    options: {
      listMissing?: boolean;
      optional?: boolean;
      schemas?: boolean | string[];
      wait?: ListingWait;
    } = {},
  ): Promise<NamespaceView & { entry(spec: ServerSpec): ServerFacts | undefined }> {
    // A daemon elsewhere (daemon.endpoint) answers from its own cache: its servers are the ones
    // its calls reach, and this machine's files are not its (decision 0051).
    if (await this.endpoint()) return await this.#endpointView(options);
    const config = await this.config();
    if (config.path === null && !options.optional) {
      throw new McpxError("no-config", noConfigMessage(config.searched ?? [], this.cwd));
    }
    const selection = selectionFromSettings((await this.settings()).values);
    checkSelection(config.servers, selection);
    // The entries to read whole: each server's own, or its alias target's.
    const asked = options.schemas ?? true;
    const wanted = asked === true ? undefined : asked === false ? [] : [
      ...new Set(
        config.servers.filter((s) => asked.includes(s.namespace) || asked.includes(s.name))
          .map((s) => listingOf(s).name),
      ),
    ];
    // An entry whose file is damaged leaves the index here, so it is listed again below.
    const read = (index: SchemaIndex | null) => index && loadEntries(index, wanted);
    // Read once per command: a second view (search's types hint) loads only more entries.
    // A view of named namespaces alone (`types ns`, search's types hint) reads their files,
    // not the index, and builds no other namespace's view, so its cost does not grow with
    // the configuration (decision 0028).
    const direct = wanted !== undefined && wanted.length > 0;
    let cache = read(
      direct
        ? await this.#entriesAlone(wanted)
        : this.#index !== undefined
        ? this.#index
        : await this.schemaCache(),
    );
    const stale = (s: ServerSpec) =>
      needsListing(own(cache?.servers, listingOf(s).name), listingOf(s).listingId);
    // A server the configuration keeps from starting (an unset `${VAR}`) is not listed:
    // the view shows it as an error, and every other server is listed as usual.
    const enabled = config.servers.filter((s) =>
      !s.disabled && !s.unavailable && isSelected(s, selection) &&
      (!direct || wanted.includes(listingOf(s).name))
    );
    // An edited configuration (new fingerprint) starts with the entries its
    // unchanged servers already had, so only what changed is listed.
    if (enabled.some(stale)) {
      cache ??= emptySchemaCache(config.path);
      const listings = enabled.map((s) => listingOf(s));
      seedFromSiblings(this.paths().cacheDir, config.fingerprint, cache, listings, (e) => e);
      read(cache);
    }
    // One listing per cache entry (an alias and its target share one); a set, not a search each.
    const seen = new Set<string>();
    const missing = enabled.filter((s) =>
      !seen.has(listingOf(s).name) && seen.add(listingOf(s).name) && stale(s)
    );
    const unlisted: string[] = [];
    const starting: StartingListing[] = [];
    if (options.listMissing !== false && missing.length > 0) {
      try {
        const results = await this.request<Record<string, ListResult>>("list", {
          servers: missing.map((s) => s.name),
          missingOnly: true,
          ...(options.wait ? { wait: options.wait } : {}),
        });
        for (const spec of missing) {
          const going = own(results, spec.name)?.starting;
          if (going) starting.push({ server: spec.name, namespace: spec.namespace, ...going });
        }
        cache = read(await this.schemaCache());
      } catch (error) {
        // Without a daemon the cached servers can still be shown; say what is missing.
        if (!(error instanceof DaemonUnavailableError)) throw error;
        unlisted.push(
          `could not list ${missing.map((s) => s.name).join(", ")}: ${error.message}`,
        );
      }
    }
    // A partial index is not the index: a later view reads the real one.
    if (!direct) this.#index = cache;
    const view = namespacesFromCache(config.servers, cache, selection);
    // Facts alone, never the entry's tools: only the view applies the tool filters.
    const entry = (spec: ServerSpec) => factsOf(own(cache?.servers, listingOf(spec).name));
    return {
      ...view,
      problems: [...unlisted, ...view.problems],
      ...(starting.length ? { starting } : {}),
      entry,
    };
  }

  /**
   * The configured server `name` (a namespace identifier or a server name)
   * means, from the configuration alone, checked before any daemon is asked:
   * a name the configuration does not show fails here with discovery's error
   * (its suggestions, or why a disabled or unselected one is hidden), so a
   * command that fails on a name starts no daemon (issue 24). The daemon
   * checks again when it answers (engine/call_target.ts).
   *
   * @param name What the command line named.
   * @returns The server; undefined when a daemon elsewhere (`daemon.endpoint`)
   *   decides names from its own configuration.
   * @throws {McpxError} Code `no-config` when no configuration file was found.
   * @throws {NotFoundError} When the configuration shows no such namespace.
   */
  async configuredServer(name: string): Promise<ServerSpec | undefined> {
    if (await this.endpoint()) return undefined;
    const config = await this.config();
    if (config.path === null) {
      throw new McpxError("no-config", noConfigMessage(config.searched ?? [], this.cwd));
    }
    const selection = selectionFromSettings((await this.settings()).values);
    const shown = config.servers.filter((s) => !s.disabled && isSelected(s, selection));
    const server = shown.find((s) => s.namespace === name) ?? shown.find((s) => s.name === name);
    if (server) return server;
    const view = namespacesFromCache(config.servers, null, selection);
    findNamespace(view.namespaces, name, view.disabled);
    return undefined;
  }

  /**
   * {@link namespaces} as the daemon `daemon.endpoint` names has them (the
   * `namespaces` route, ops/view_routes.ts); `entry` knows nothing (its files
   * are on its machine).
   *
   * @throws {DaemonUnavailableError} naming the endpoint when it does not answer.
   */
  async #endpointView(
    options: { listMissing?: boolean; schemas?: boolean | string[]; wait?: ListingWait },
  ): Promise<NamespaceView & { entry(spec: ServerSpec): ServerFacts | undefined }> {
    const asked = options.schemas ?? true;
    const view = await this.request<NamespaceView>("namespaces", {
      ...(asked === true ? {} : { schemas: asked === false ? [] : asked }),
      ...(options.listMissing === false ? { listMissing: false } : {}),
      ...(options.wait ? { wait: options.wait } : {}),
    });
    return { ...view, entry: () => undefined };
  }

  /**
   * An index of `names`' entries only, each pointing at its file in this
   * configuration's folder (`loadEntries` then reads it whole, or leaves a
   * missing or damaged one out, so that server is listed again).
   */
  async #entriesAlone(names: string[]): Promise<SchemaIndex> {
    const config = await this.config();
    const indexPath = schemaCachePath(this.paths().cacheDir, config.fingerprint);
    const dir = schemaEntriesDir(indexPath);
    const servers: SchemaIndex["servers"] = {};
    for (const name of names) {
      setOwn(servers, name, { tools: [], file: join(dir, entryFileName(name)) });
    }
    return { version: 2, mcpxVersion: VERSION, configPath: config.path, servers };
  }

  /** The daemon's socket path, starting the daemon when none runs ({@link DaemonLink.daemonSocket}). */
  daemonSocket(): Promise<string> {
    return this.#daemon.daemonSocket();
  }

  /**
   * The daemon's socket, checked with one `health` request; the daemon found,
   * started or replaced only when that fails ({@link DaemonLink.liveDaemonSocket}).
   */
  liveDaemonSocket(): Promise<string> {
    return this.#daemon.liveDaemonSocket();
  }

  /**
   * The pid of the daemon {@link liveDaemonSocket} or {@link daemonSocket}
   * found, once one has (a script's client names it when its connection is lost).
   */
  get daemonPid(): number | undefined {
    return this.#daemon.daemonPid;
  }

  /**
   * The daemon elsewhere that `daemon.endpoint` (`MCPX_DAEMON_ENDPOINT`) names,
   * or undefined when none is set ({@link DaemonLink.endpoint}).
   */
  endpoint(): Promise<string | undefined> {
    return this.#daemon.endpoint();
  }

  /** The bearer token sent to {@link endpoint}; undefined without an endpoint or a token. */
  async endpointToken(): Promise<string | undefined> {
    if (!(await this.endpoint())) return undefined;
    return String(await this.setting("transport.bearerToken") ?? "") || undefined;
  }

  /** The socket of a running daemon for this configuration, without starting one. */
  existingDaemonSocket(): Promise<string> {
    return this.#daemon.existingDaemonSocket();
  }

  /**
   * Sends an operation to the daemon (started on demand) with the caller
   * context, sent again only when it provably never ran ({@link DaemonLink.request}).
   *
   * @throws {DaemonLostError} when the daemon was lost after the request was
   *   written (it may have run): the daemon's orphaned servers are ended first.
   * @throws the daemon's own errors ({@link McpxError} with its `code`).
   */
  request<T = unknown>(
    operation: string,
    params: Record<string, unknown> = {},
    options: DaemonRequestOptions = {},
  ): Promise<T> {
    // A listing changes the cache: the next view reads it again.
    if (operation === "list") this.#index = undefined;
    return this.#daemon.request<T>(operation, params, options);
  }

  /**
   * Sends an operation to this configuration's daemon only if one is running
   * ({@link DaemonLink.requestRunning}); undefined when none answered.
   */
  requestRunning<T = unknown>(
    operation: string,
    params: Record<string, unknown> = {},
    options: Pick<DaemonRequestOptions, "onExtra"> = {},
  ): Promise<T | undefined> {
    return this.#daemon.requestRunning<T>(operation, params, options);
  }

  /** Stops the daemon inside this command, if `daemon.inline` started one ({@link DaemonLink.close}). */
  close(): Promise<void> {
    return this.#daemon.close();
  }

  /**
   * Ends the process groups of this configuration's dead daemons; live
   * daemons' are left alone ({@link DaemonLink.sweepOrphans}).
   */
  sweepOrphans(): Promise<void> {
    return this.#daemon.sweepOrphans();
  }

  /**
   * After work that talked to the daemon behind this CLI's back (a script's
   * calls): ends the servers its daemon left if it died meanwhile
   * ({@link DaemonLink.sweepIfDaemonDied}).
   */
  sweepIfDaemonDied(): Promise<void> {
    return this.#daemon.sweepIfDaemonDied();
  }
}
