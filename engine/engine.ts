/**
 * The daemon's state for one configuration and the work behind every
 * operation: call, list, status, restart, named sessions, runs' holds, lease
 * waits, warm-up, reaping and shutdown. It holds its pools
 * (engine/pool_set.ts), its schema cache and the listings that fill it
 * (engine/listings.ts), and the record of its instances' lives
 * (engine/instance_events.ts); one call on a pool is engine/call.ts.
 * Transport-free: daemon/http.ts serves it on a unix socket, tests can drive
 * it directly.
 *
 * @module
 */

import {
  listingOf,
  type LoadedConfig,
  type ProtocolMode,
  type ServerSpec,
  type UntrustedServer,
} from "../config/types.ts";
import type { TrustGate } from "../config/trust.ts";
import { McpxError } from "../core/errors.ts";
import { type StatusRow, statusRow } from "./status_row.ts";
import { type Instance, SessionLostError } from "./instance.ts";
import { DEFAULT_TASK_TTL_MS, TaskTable } from "./task_table.ts";
import type { Pool } from "./pool.ts";
import { PoolSet } from "./pool_set.ts";
import { LeaseBoard } from "./lease_board.ts";
import { type CallerContext, type ScopeKey, sessionKeys } from "./scope_key.ts";
import { callTarget } from "./call_target.ts";
import { log } from "./log.ts";
import { listedUnder, startAllowance, StartingInstances, type StartingRow } from "./starting.ts";
import { VERSION } from "../core/version.ts";
import type { CallOptions } from "./call_trace.ts";
import type { Redactor } from "../core/redact.ts";
import { configRedactor } from "../config/secrets.ts";
import { mcpxPaths } from "../config/paths.ts";
import { type NamedSession, sessionsPath, SessionStore } from "./sessions.ts";
import { existingSession, newSessionName } from "./session_names.ts";
import type { ListingWait, ListResults } from "./tool_listing.ts";
import { Listings, type ListingsOptions } from "./listings.ts";
import { InstanceEvents } from "./instance_events.ts";
import { EventBus } from "./event_bus.ts";
import type { HookRunner } from "./hook_runner.ts";
import { SessionEvents } from "./session_events.ts";
import {
  type Attacher,
  type AttachMode,
  type AttachPolicy,
  SessionAttachments,
} from "./session_attach.ts";
import { joinProcessEvents } from "./process_events.ts";
import { callOnce } from "./call.ts";
import {
  adoptAll,
  type AdoptFailure,
  type HandedServer,
  type HandoffRecord,
  handOver,
} from "./handoff.ts";
import { refuseGoneCaller, type RequestSource } from "./server_request.ts";
import type { ProfileSelection } from "../config/profiles.ts";
import type { NamespaceView } from "../discovery/view.ts";
import type { CachedServer } from "../discovery/types.ts";

/** Started on demand (exits idle), deliberately, or within one command (daemon/inline.ts). */
export type DaemonMode = "auto" | "foreground" | "inline";

/** Everything the daemon needs to run. */
export interface DaemonOptions {
  config: LoadedConfig;
  cachePath: string;
  mode: DaemonMode;
  /** Environment servers inherit (under each server's own `env`). */
  env: Record<string, string>;
  /** Version reported by `health` (a test seam: `plumbing.version`). */
  version?: string;
  /** The configuration's redactor (core/redact.ts); default: built from `config` and `env`. */
  redactor?: Redactor;
  /** The named sessions' file; default `<stateDir>/sessions/<fingerprint>.json` (`env`'s). */
  sessionsPath?: string;
  /**
   * Set for a project's configuration under `security.trustProjectConfigs=ask`:
   * no server it has not trusted starts, for a call, a listing or `min`
   * (config/trust.ts, decision 0018). Absent: every server may start.
   */
  trust?: TrustGate;
  /** Test seams of the schema cache: its type generator and its writer (engine/listings.ts). */
  listings?: Pick<ListingsOptions, "typeGenerator" | "write">;
  /** The mode of a server whose entry sets none (`protocol.default`; engine/protocol_era.ts). */
  protocolDefault?: ProtocolMode;
  /** The TTL every task asks for, ms (`tasks.ttl`; engine/task_table.ts); default 5 minutes. */
  taskTtlMs?: number;
  /** The configuration's declared hooks, run for the events of {@link Daemon.events} (engine/hook_runner.ts). */
  hooks?: HookRunner;
  /** `sessions.attach`: who may attach to a session (engine/session_attach.ts); default same-user. */
  sessionAttach?: AttachPolicy;
  /** How many events the event bus keeps (`events.retention`; engine/event_bus.ts); default 10,000. */
  eventRetention?: number;
  /**
   * This daemon is its process's (daemon/main.ts, daemon/inline.ts): the
   * process's question desk, log and subscription table publish on and hear
   * its bus until it shuts down (engine/process_events.ts).
   */
  processEvents?: boolean;
}

/** A named session as `sessionList` returns it. */
export interface SessionRow extends NamedSession {
  /** Who is attached now (engine/session_attach.ts), without their tokens. */
  attached?: { mode: AttachMode; by: Attacher; since: string }[];
  /** Namespaces with a live instance keyed by this session now. */
  live: string[];
}

export type { StatusRow } from "./status_row.ts";
export type { CallOptions } from "./call_trace.ts";
export { REBUILT_META } from "./rebuilt_note.ts";

/** The daemon for one configuration. */
export class Daemon {
  readonly config: LoadedConfig;
  readonly mode: DaemonMode;
  readonly version: string;
  readonly startedAt = Date.now();
  lastActivityAt = Date.now();
  /** Requests in flight (the idle exit waits for zero). */
  inFlight = 0;
  /**
   * Replaces this daemon by one of the installed version, its servers kept
   * (`mcpx daemon upgrade`): installed by daemon/main.ts; absent in a daemon
   * run inline, which has nothing to hand over.
   */
  upgrade?: () => Promise<unknown>;
  /**
   * Set when a daemon for a newer version of this configuration took over:
   * this one stops as soon as no request is in flight, so a running call
   * finishes instead of being cut off by the edit.
   */
  retiring = false;
  /**
   * Set when the daemon begins to stop: requests are refused from then on
   * (`daemon-stopping`, nothing run), and `health` says so.
   */
  stopping = false;
  /** One pool per `poolId` (engine/pool_set.ts). */
  #pools: PoolSet;
  /** The schema cache and the listings that fill it (engine/listings.ts). */
  #listings: Listings;
  /** Log spans and facts about each instance's life (engine/instance_events.ts). */
  #events: InstanceEvents;
  /** Every lease wait of every pool (engine/lease_board.ts). */
  readonly leases = new LeaseBoard();
  /** Named sessions (engine/sessions.ts). */
  readonly sessions: SessionStore;
  /** Who is attached to which session (engine/session_attach.ts, decision 0085). */
  readonly attachments: SessionAttachments;
  /** The tasks calls made, each with its instance (engine/task_table.ts, engine/tasks.ts). */
  readonly tasks: TaskTable<Instance>;
  /** Server starts in progress (the `starting` operation). */
  #startingNow = new StartingInstances();
  /**
   * The daemon's event bus (engine/event_bus.ts, decisions 0079 and 0080):
   * calls, servers' lives, questions, list changes, resource updates,
   * sessions, dropped log records and configuration changes, each published
   * where it happens; `GET /v1/events`, `mcpx serve`'s notifications and
   * hooks read it.
   */
  readonly events: EventBus;
  /** Sessions opening and closing, published on {@link events}. */
  #sessionEvents: SessionEvents;
  /** Undoes {@link DaemonOptions.processEvents} at shutdown. */
  #leaveProcess?: () => void;
  /** Aborted when the daemon shuts down: what outlives a request (an event stream) ends with it. */
  readonly #down = new AbortController();
  /**
   * Replaces the configuration's secrets with their references in all the
   * daemon writes or answers: the schema cache, wire bodies, records (decision 0017).
   */
  readonly redactor: Redactor;
  #trust?: TrustGate;
  /** Runs the configuration's hooks; closed first when the daemon stops. */
  #hooks?: HookRunner;

  constructor(options: DaemonOptions) {
    this.config = options.config;
    this.redactor = options.redactor ?? configRedactor(options.config, options.env);
    this.mode = options.mode;
    this.version = options.version ?? VERSION;
    this.#trust = options.trust;
    this.#hooks = options.hooks;
    this.tasks = new TaskTable(options.taskTtlMs ?? DEFAULT_TASK_TTL_MS);
    this.sessions = new SessionStore(
      options.sessionsPath ??
        sessionsPath(mcpxPaths(options.env).stateDir, options.config.fingerprint),
      options.config.path,
    );
    this.attachments = new SessionAttachments(options.sessionAttach);
    this.events = new EventBus({ retention: options.eventRetention });
    this.#sessionEvents = new SessionEvents(this.events);
    if (options.processEvents) this.#leaveProcess = joinProcessEvents(this.events);
    if (this.#hooks?.declared) this.#hooks.attach(this.events);
    const events = this.#events = new InstanceEvents(this.sessions, this.events);
    this.#listings = new Listings({
      config: options.config,
      cachePath: options.cachePath,
      redactor: this.redactor,
      pool: (spec) => this.#pools.of(spec)!,
      span: (instance) => events.span(instance),
      starts: this.#startingNow,
      ...options.listings,
    });
    this.#pools = new PoolSet(options.config, options.env, (spec) => ({
      started: (i) => {
        events.started(i);
        this.#listings.started(i.spec);
      },
      exited: (i) => events.exited(i),
      failed: (error, key, count) => events.failed(spec, error, key, count),
      startOptions: () => ({
        // Never listed under these settings: the first start may include `npx -y`'s install.
        allowance: startAllowance(
          spec.pool,
          listedUnder(this.#listings.entry(spec), listingOf(spec).listingId),
        ),
        starting: this.#startingNow,
        onStrayLine: (instance, line, count) => events.strayLine(instance, line, count),
        onAsked: (instance, question) => events.asked(instance, question),
        protocolDefault: options.protocolDefault,
        configPath: options.config.path,
        notifications: events.serverRecords(this.#listings),
      }),
      pidExited: (instance, pid) => events.pidExited(instance, pid),
      keep: (key) => events.keep(key),
      evicted: (instance, forKey) => events.evicted(instance, forKey),
      runGone: (instance, run, pid) => events.runGone(instance, run, pid),
    }), this.leases);
  }

  /** Aborted once the daemon has begun to shut down (an event stream ends with it). */
  get down(): AbortSignal {
    return this.#down.signal;
  }

  /**
   * Publishes `config.reloaded`: this daemon took a changed configuration
   * (`change: "replaced"`: it retired the daemons of the file's older bytes),
   * or a daemon for the edited file took over from it (`change: "retiring"`).
   *
   * @param facts The event's data: `change` and what it names.
   */
  configChanged(facts: Record<string, unknown>): void {
    this.events.publish("config.reloaded", {
      data: { config: this.config.path, fingerprint: this.config.fingerprint, ...facts },
    });
  }

  /**
   * The pool serving a namespace.
   * @throws {NotFoundError} with near names; {McpxError} `server-unavailable`
   *   for a server the configuration keeps from starting (config/types.ts `unavailable`).
   */
  poolFor(namespace: string): Pool {
    return this.#pools.forNamespace(namespace);
  }

  /** True when a server starts only once its project configuration trusts it ({@link DaemonOptions.trust}). */
  get trustCheck(): boolean {
    return this.#trust !== undefined;
  }

  /** Why `spec` may not start: its project file is not trusted (config/trust.ts), read each time. */
  #untrusted(spec: ServerSpec): UntrustedServer | undefined {
    return spec.derived ? undefined : this.#trust?.problem(spec.name);
  }

  /**
   * Per namespace: live instances (the LIVE column of `ls`) and, when its
   * last start failed, the message, so `ls` does not say `ready` for a server
   * that no longer starts.
   */
  live(): Record<string, { live: number; failure?: string }> {
    return this.#pools.live();
  }

  /**
   * Calls `namespace.tool` (its real name or its identifier). Three bounds
   * (issue 8): the wait for an instance others hold (`leaseTimeout`), a start
   * (`startTimeout`, not counted against the caller's limit), and the call
   * (`callTimeout`); `options.timeoutMs` (`--timeout`) covers the wait and the
   * call together (engine/call.ts). A call a remote refused because it no
   * longer knows the session ({@link SessionLostError}: it did not run) runs
   * once more on a new connection. A task-only tool, or `options.asTask`,
   * runs as a task (engine/call_as_task.ts).
   *
   * @returns The MCP `CallToolResult` (with `asTask`, the `CreateTaskResult`).
   * @throws {NotFoundError}, {ServerError}, {TimeoutError} with `bound` and
   *   `setting` saying which limit passed, {LeaseDeadlockError}, {UsageError}.
   */
  async call(
    namespace: string,
    tool: string,
    args: Record<string, unknown>,
    ctx: CallerContext,
    options: CallOptions = {},
  ): Promise<unknown> {
    refuseGoneCaller(ctx);
    // An untrusted project server is never started, not even to list it for the check below.
    const named = this.#pools.server(namespace);
    const refused = named && this.#untrusted(named);
    if (refused) throw new McpxError("untrusted-config", refused.message);
    // The caller's selection and the configuration's tool filters, whoever the caller is.
    const target = await callTarget(
      {
        servers: this.config.servers,
        view: (selection) => this.#listings.view(selection),
        needsListing: (spec) => this.#listings.needsListing(spec),
        list: (spec) => this.#listings.list(spec),
      },
      namespace,
      tool,
      ctx.selection,
    );
    const pool = this.poolFor(target.namespace);
    const untrusted = this.#untrusted(pool.spec);
    if (untrusted) throw new McpxError("untrusted-config", untrusted.message);
    this.attachments.check(ctx.session, ctx.attach);
    for (const key of [ctx.session, ctx.parentSession]) {
      if (!key) continue;
      this.sessions.touch(key);
      this.#sessionEvents.seen(key);
    }
    const events = this.#events;
    const once = () => callOnce(pool, target, args, ctx, { ...options, tasks: this.tasks }, events);
    try {
      return await once();
    } catch (error) {
      // A remote that restarted forgot our session; the call never ran, so run it once more.
      if (!(error instanceof SessionLostError)) throw error;
      log(
        "info",
        "call.retry",
        "{namespace}.{tool}: the server forgot our session; running the call again on a new connection",
        { namespace: target.namespace, tool: target.tool },
      );
      return await once();
    }
  }

  /** What prompts and resources requests lease through (engine/content.ts, engine/server_request.ts). */
  get requests(): RequestSource {
    return {
      servers: this.config.servers,
      sessions: this.sessions,
      view: (selection) => this.#listings.view(selection),
      poolFor: (namespace) => this.poolFor(namespace),
      untrusted: (spec) => this.#untrusted(spec),
      span: (instance) => this.#events.span(instance),
    };
  }

  /**
   * Lists servers and writes the schema cache.
   *
   * @param names Server names (`mcpServers` keys) or namespaces; all enabled servers when empty.
   * @param missingOnly Only servers with no usable cache entry.
   * @param wait How long to wait (absent: until each listing ends); one still going is `starting`.
   * @returns Per server: tools count or the error message, and `listedBy` when
   *   the listing went through a process that was already running (a server
   *   whose code changed since it started still answers with its old tools;
   *   `mcpx restart` replaces it, decision 0025).
   * @throws {NotFoundError} for an unknown name; the cache write's error when
   *   a listing could not be stored (a full disk).
   */
  list(names: string[] = [], missingOnly = false, wait?: ListingWait): Promise<ListResults> {
    const refused = (s: ServerSpec) => s.unavailable ?? this.#untrusted(s);
    return this.#listings.refresh(this.#pools.select(names), refused, missingOnly, wait);
  }

  /**
   * The namespaces `selection` shows of this daemon's cache, whole (schemas
   * and declarations), built once per cache change (engine/listings.ts): what
   * a discovery op answered here reads instead of the cache's files.
   */
  view(selection: ProfileSelection): NamespaceView {
    return this.#listings.view(selection);
  }

  /** `spec`'s cache entry as this daemon holds it (an alias: its target's); none: undefined. */
  entry(spec: ServerSpec): CachedServer | undefined {
    return this.#listings.entry(spec);
  }

  /** Resolves once every stored listing's declarations are in the cache file or given up. */
  declared(): Promise<void> {
    return this.#listings.declared();
  }

  /** The server starts in progress now, oldest first (what a waiting CLI shows). */
  starting(): StartingRow[] {
    return this.#startingNow.rows();
  }

  /** Rows for `mcpx status`, one per enabled or disabled server. */
  status(): StatusRow[] {
    const now = Date.now();
    return this.config.servers.map((spec) => {
      const untrusted = spec.unavailable ? undefined : this.#untrusted(spec);
      return statusRow(
        untrusted ? { ...spec, unavailable: untrusted } : spec,
        this.#listings.entry(spec),
        { ...this.#pools.status(spec, now), starting: this.#listings.startInProgress(spec, now) },
      );
    });
  }

  /**
   * Stops every instance of a namespace, or only one session's (keyed
   * `session:<key>` or `parent-session:<key>`); the next call starts a fresh one.
   * @returns How many instances were stopped.
   * @throws {NotFoundError} for an unknown namespace.
   */
  async restart(namespace: string, session?: string): Promise<number> {
    const pool = this.poolFor(namespace);
    pool.failure = undefined;
    return await pool.stop("restart", session === undefined ? undefined : sessionKeys(session));
  }

  /**
   * Ends a session: every instance keyed `session:<key>` or
   * `parent-session:<key>`, in every namespace, stops once its current lease
   * is released (an idle one at once). The script runner calls it when a run
   * whose key it minted ends (`MCPX_EPHEMERAL`, spec 000 "Lifetime"); `mcpx
   * session end` calls it through {@linkcode Daemon.sessionEnd}. A named
   * session's record is left alone.
   *
   * @param why Logged as the `server.exit` reason (`session-end`, `session-ttl`).
   * @returns How many instances stop.
   */
  async endSession(key: string, why = "session-end"): Promise<number> {
    const keys = sessionKeys(key);
    const stopping: Promise<void>[] = [];
    let count = 0;
    for (const pool of this.#pools.all) {
      const { instances, stopped } = pool.end(keys, "stop");
      for (const instance of instances) this.#events.stopping(instance, why);
      count += instances.length;
      stopping.push(stopped);
    }
    await Promise.all(stopping);
    log("info", "session.end", "session {session} ended: {count} instances stop ({why})", {
      session: key,
      count,
      why,
    });
    this.#sessionEvents.closed(key, why, count);
    this.attachments.forget(key);
    return count;
  }

  /**
   * Ends a script run's holds: every exclusive instance run `run` held
   * between its calls is free for others again (issue 8, "a run is one
   * caller"). The script runner calls it when the run ends; a run whose
   * `mcpx run` was killed loses its holds when the daemon sees its pid gone.
   * @returns How many holds were dropped.
   */
  endRun(run: string): number {
    let count = 0;
    for (const pool of this.#pools.all) count += pool.releaseRun(run);
    if (count) {
      log("info", "lease.run-end", "run {run} ended: {count} exclusive instances are free", {
        run,
        count,
      });
    }
    return count;
  }

  /**
   * Makes a named session (`mcpx session new`).
   * @param name Default: a fresh 8-character name.
   * @param ttlMs End it after this long without a call; absent: never.
   * @throws {UsageError} for a malformed name; {McpxError} `session-exists` for a taken one;
   *   {StorageError} when its record cannot be written (engine/sessions.ts `create`).
   */
  async sessionNew(
    name: string | undefined,
    ttlMs?: number,
    owner?: Attacher,
  ): Promise<SessionRow> {
    const chosen = newSessionName(this.sessions, name);
    const session = await this.sessions.create(chosen, ttlMs, owner);
    log("info", "session.new", "named session {session} made", {
      session: session.name,
      ...(ttlMs ? { ttlMs } : {}),
    });
    this.#sessionEvents.seen(session.name, { named: true, ...(ttlMs ? { ttlMs } : {}) });
    // A new key known in advance: `min` warms its instances.
    void this.warm();
    return { ...session, live: [] };
  }

  /** Every named session with the namespaces where it has a live instance now. */
  sessionList(): SessionRow[] {
    return this.sessions.list().map((s) => ({
      ...s,
      live: this.#pools.liveNamespaces(sessionKeys(s.name)),
      attached: this.attachments.of(s.name).map(({ mode, by, since }) => ({ mode, by, since })),
    }));
  }

  /**
   * Ends a named session: its instances stop ({@linkcode Daemon.endSession})
   * and its record is deleted.
   * @returns How many instances stop.
   * @throws {NotFoundError} naming the known sessions, nearest first.
   */
  async sessionEnd(name: string): Promise<number> {
    existingSession(this.sessions, name);
    const stopped = await this.endSession(name);
    this.sessions.delete(name);
    await this.sessions.flush();
    return stopped;
  }

  /**
   * Stops idle instances of every pool, and ends named sessions unused for
   * longer than their ttl. @returns how many instances were stopped.
   */
  async reap(now = Date.now()): Promise<number> {
    let n = 0;
    for (const session of this.sessions.expired(now)) {
      n += await this.endSession(session.name, "session-ttl");
      this.sessions.delete(session.name);
    }
    for (const pool of this.#pools.all) n += await pool.reap(now);
    // `min` instances that exited (crash, restart, ended session) come back.
    void this.warm();
    return n;
  }

  /** The smallest idle timeout of any pool, in ms (drives the reaper's period). */
  get shortestIdleMs(): number {
    return this.#pools.shortestIdleMs;
  }

  /**
   * Starts the instances each pool's `min` keeps warm, for every key known
   * before a call: `global`, and each named session of a session-scoped
   * server (as `session:<name>`). Pools with `min` 0 start nothing.
   */
  async warm(): Promise<void> {
    const named = this.sessions.list().map((s): ScopeKey => ({ kind: "session", value: s.name }));
    await this.#pools.warm(named, (spec) => this.#untrusted(spec) !== undefined);
  }

  /**
   * Lets go of every stdio server without stopping it, for the daemon that
   * replaces this one (`mcpx daemon upgrade`, engine/handoff.ts); other
   * instances are stopped. Call with nothing in flight.
   */
  async handOver(): Promise<{ servers: HandedServer[]; stopped: number }> {
    return await handOver(this.#pools.all);
  }

  /** Takes over the servers a previous daemon handed over (engine/handoff.ts `adoptAll`). */
  async adopt(record: HandoffRecord): Promise<{ adopted: number; failed: AdoptFailure[] }> {
    const pools = new Map(this.#pools.all.map((p) => [p.spec.poolId, p]));
    const done = await adoptAll(record, (id) => pools.get(id));
    return { adopted: done.adopted.length, failed: done.failed };
  }

  /** Flushes the schema cache and stops every instance (process groups included). */
  async shutdown(): Promise<void> {
    // A hook still running is ended with its process group; one waiting is not started.
    await this.#hooks?.close();
    this.leases.close();
    await this.#listings.close();
    await this.#listings.flush();
    await Promise.all(this.#pools.all.map((p) => p.stop("stop")));
    await this.#events.settled();
    // Event streams end once the servers' `server.stopped` events are published (and sent).
    this.#down.abort();
    await this.sessions.flush();
    this.#leaveProcess?.();
  }
}
