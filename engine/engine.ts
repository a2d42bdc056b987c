/**
 * The daemon's state for one configuration: its pools, its schema cache, and
 * the work behind every operation. Transport-free: daemon/http.ts serves it
 * on a unix socket, tests can drive it directly.
 *
 * @module
 */

import { jsonByteLength } from "../core/json_stream.ts";
import {
  listingOf,
  type LoadedConfig,
  type ServerSpec,
  type UntrustedServer,
} from "../config/types.ts";
import type { TrustGate } from "../config/trust.ts";
import type { CachedServer, CachedTool, SchemaCacheFile } from "../discovery/types.ts";
import { McpxError, NotFoundError, ServerError, TimeoutError, UsageError } from "../core/errors.ts";
import { toIdentifier } from "../config/identifiers.ts";
import { failedListing, lastFailure } from "../discovery/cache_entry.ts";
import { type StatusRow, statusRow } from "./status_row.ts";
import { describe, type Instance, SessionLostError } from "./instance.ts";
import { Pool } from "./pool.ts";
import { pidAlive } from "../core/pid_alive.ts";
import { LeaseBoard, type LeaseWait } from "./lease_board.ts";
import { budgetSpentError, callTimeoutError, sessionOfKey } from "./lease_errors.ts";
import { type RebuiltWhy, withRebuiltNote } from "./rebuilt_note.ts";
import type { CallerContext } from "./scope_key.ts";
import { callTarget } from "./call_target.ts";
import { namespacesFromCache, type NamespaceView } from "../discovery/view.ts";
import { type ProfileSelection, selectionKey } from "../config/profiles.ts";
import {
  emptySchemaCache,
  needsListing,
  readSchemaCache,
  seedFromSiblings,
  writeSchemaCache,
} from "./schema_cache.ts";
import { daemonSpan, log, newSpan } from "./log.ts";
import { listedUnder, startAllowance, StartingInstances, type StartingRow } from "./starting.ts";
import { VERSION } from "../core/version.ts";
import { type CallOptions, traceCall } from "./call_trace.ts";
import type { Redactor } from "../core/redact.ts";
import { configRedactor } from "../config/secrets.ts";
import { mcpxPaths } from "../config/paths.ts";
import { nearest } from "../core/nearest.ts";
import {
  freshSessionName,
  type NamedSession,
  SESSION_NAME,
  sessionNameProblem,
  sessionsPath,
  SessionStore,
} from "./sessions.ts";
import { own, setOwn } from "../core/own.ts";
import type { ListedBy, ListResult } from "./tool_listing.ts";

/** How the daemon was started: on demand by a CLI (exits when idle) or deliberately. */
export type DaemonMode = "auto" | "foreground";

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
  /**
   * The named sessions' file; default `<stateDir>/sessions/<fingerprint>.json`
   * with the state directory resolved from `env`.
   */
  sessionsPath?: string;
  /**
   * Set for a project's configuration under `security.trustProjectConfigs=ask`:
   * no server it has not trusted starts, for a call, a listing or `min`
   * (config/trust.ts, decision 0018). Absent: every server may start.
   */
  trust?: TrustGate;
}

/** A named session as `sessionList` returns it. */
export interface SessionRow extends NamedSession {
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
  #pools = new Map<string, Pool>();
  #byNamespace = new Map<string, ServerSpec>();
  #cache: SchemaCacheFile;
  #cachePath: string;
  #cacheWrite: Promise<void> = Promise.resolve();
  /** The last schema cache write's failure, until a write succeeds (a full disk). */
  #cacheWriteError: unknown;
  #listing = new Map<string, Promise<CachedServer>>();
  /**
   * Per listed server name: the process its latest listing went through when that
   * process was already running before the listing began (a fresh start is absent).
   */
  #listedBy = new Map<string, ListedBy>();
  /** What each profile selection shows of the cache (emptied whenever the cache changes). */
  #views = new Map<string, NamespaceView>();
  /** The log span of each live instance (`ins-…`). */
  #spans = new WeakMap<Instance, string>();
  /** `server.exit` records waiting for their exit status (awaited by `shutdown`). */
  #exitRecords = new Set<Promise<void>>();
  /** Why an instance stopped when the instance's own reason is not the whole story. */
  #why = new WeakMap<Instance, string>();
  /** Instances that replace a session's earlier one, not yet reported to a call, with why. */
  #rebuilt = new WeakMap<Instance, RebuiltWhy>();
  /** `<poolId>\0<key>` of instances stopped to make room, whose key's next instance is a rebuild. */
  #evictedKeys = new Set<string>();
  /** Every lease wait of every pool (engine/lease_board.ts). */
  readonly leases = new LeaseBoard();
  /** Named sessions (engine/sessions.ts). */
  readonly sessions: SessionStore;
  /** Server starts in progress (the `starting` operation). */
  #startingNow = new StartingInstances();
  /**
   * Replaces the configuration's secrets with their references in all the
   * daemon writes or answers: the schema cache, wire bodies, records (decision 0017).
   */
  readonly redactor: Redactor;
  #trust?: TrustGate;

  constructor(options: DaemonOptions) {
    this.config = options.config;
    this.redactor = options.redactor ?? configRedactor(options.config, options.env);
    this.mode = options.mode;
    this.version = options.version ?? VERSION;
    this.#trust = options.trust;
    this.#cachePath = options.cachePath;
    this.sessions = new SessionStore(
      options.sessionsPath ??
        sessionsPath(mcpxPaths(options.env).stateDir, options.config.fingerprint),
      options.config.path,
    );
    this.#cache = readSchemaCache(options.cachePath) ?? emptySchemaCache(options.config.path);
    const cacheDir = options.cachePath.slice(0, options.cachePath.lastIndexOf("/"));
    if (
      seedFromSiblings(
        cacheDir,
        options.config.fingerprint,
        this.#cache,
        options.config.servers.map((s) => ({ ...listingOf(s), disabled: s.disabled })),
      )
    ) {
      this.#persist();
    }
    // A stdio server's `cwd` is set when the configuration is parsed (the
    // file's real directory when its entry sets none: config/_process.ts), so
    // its pool identity covers it; the daemon itself runs in `/`.
    for (const spec of options.config.servers) {
      if (spec.disabled) continue;
      // Two servers of one namespace: the first is the one discovery shows (discovery/view.ts).
      if (!this.#byNamespace.has(spec.namespace)) this.#byNamespace.set(spec.namespace, spec);
      // A server the configuration keeps from starting (an unset `${VAR}`) gets no pool:
      // nothing can start it, not even a pool's `min` (poolFor says why).
      if (spec.unavailable) continue;
      if (!this.#pools.has(spec.poolId)) {
        this.#pools.set(
          spec.poolId,
          new Pool(spec, options.env, {
            started: (i) => this.#started(i),
            exited: (i) => this.#exited(i),
            failed: (error, key, count) =>
              log("warn", "server.fail", "server {server} failed to start: {error}", {
                server: spec.name,
                key,
                count,
                error: error.message.split("\n")[0],
              }),
            startOptions: () => ({
              // Never listed under these settings: the first start may include `npx -y`'s install.
              allowance: startAllowance(
                spec.pool,
                listedUnder(
                  own(this.#cache.servers, listingOf(spec).name),
                  listingOf(spec).listingId,
                ),
              ),
              starting: this.#startingNow,
              onStrayLine: (instance, line, count) => this.#strayLine(instance, line, count),
            }),
            pidExited: (instance, pid) =>
              log(
                "info",
                "scope.pid-exit",
                "process {pid} exited, so {server}'s instance for {key} stops",
                { server: spec.name, localId: instance.id, pid, key: instance.key },
                { span: this.#spans.get(instance) ?? daemonSpan() },
              ),
            keep: (key) => this.#keepKey(key),
            evicted: (instance, forKey) => this.#evicted(instance, forKey),
            runGone: (instance, run, pid) =>
              log(
                "info",
                "lease.run-gone",
                "run {run} (pid {pid}) is gone, so its hold on {server} ({key}) is dropped",
                { server: spec.name, localId: instance.id, run, pid, key: instance.key },
                { span: this.#spans.get(instance) ?? daemonSpan() },
              ),
          }, this.leases),
        );
      }
    }
  }

  /**
   * The pool serving a namespace.
   * @throws {NotFoundError} with near names; {McpxError} `server-unavailable`
   *   for a server the configuration keeps from starting (config/types.ts `unavailable`).
   */
  poolFor(namespace: string): Pool {
    const spec = this.#byNamespace.get(namespace);
    if (!spec) {
      throw new NotFoundError(
        `unknown namespace "${namespace}"; run \`mcpx ls\` to see the namespaces`,
        [...this.#byNamespace.keys()],
      );
    }
    if (spec.unavailable) throw unavailableError(spec);
    return this.#pools.get(spec.poolId)!;
  }

  /** True when a server starts only once its project configuration trusts it ({@link DaemonOptions.trust}). */
  get trustCheck(): boolean {
    return this.#trust !== undefined;
  }

  /**
   * Why `spec` may not start: its project configuration has not trusted what it
   * runs (config/trust.ts). Read at each start, so `mcpx trust` takes effect at once.
   */
  #untrusted(spec: ServerSpec): UntrustedServer | undefined {
    return this.#trust?.problem(spec.name);
  }

  /**
   * Per namespace: live instances (the LIVE column of `ls`) and, when its
   * last start failed, the message, so `ls` does not say `ready` for a server
   * that no longer starts.
   */
  live(): Record<string, { live: number; failure?: string }> {
    const out: Record<string, { live: number; failure?: string }> = {};
    for (const [namespace, spec] of this.#byNamespace) {
      const pool = this.#pools.get(spec.poolId);
      if (!pool) continue;
      setOwn(out, namespace, {
        live: pool.instances.length,
        ...(pool.failure ? { failure: pool.failure.error.message } : {}),
      });
    }
    return out;
  }

  /**
   * Calls `namespace.tool`. `tool` may be the real name or its identifier.
   *
   * Three bounds (issue 8, "Three bounds on a caller's wait"): the wait for
   * an instance others hold (`leaseTimeout`), a start (`startTimeout`, not
   * counted against the caller's limit), and the call (`callTimeout`).
   * `options.timeoutMs`, the caller's own limit (`--timeout`), covers the
   * wait and the call together: the call gets what the wait left.
   *
   * @returns The MCP `CallToolResult`.
   * @throws {NotFoundError}, {ServerError}, {TimeoutError} with `bound` and
   *   `setting` saying which limit passed, {LeaseDeadlockError}.
   */
  async call(
    namespace: string,
    tool: string,
    args: Record<string, unknown>,
    ctx: CallerContext,
    options: CallOptions = {},
  ): Promise<unknown> {
    // A script whose `mcpx run` was killed (SIGKILL leaves it no chance to stop
    // the script) is an orphan: refuse its calls rather than serve a run nobody reads.
    if (ctx.run && ctx.pid !== undefined && !pidAlive(ctx.pid)) {
      throw new McpxError(
        "caller-gone",
        `the mcpx process (pid ${ctx.pid}) that started run ${ctx.run} has exited, so the ` +
          `script's calls are refused; start it again with \`mcpx run\``,
      );
    }
    // An untrusted project server is never started, not even to list it for the check below.
    const named = this.#byNamespace.get(namespace);
    const refused = named && this.#untrusted(named);
    if (refused) throw new McpxError("untrusted-config", refused.message);
    // The caller's selection and the configuration's tool filters, whoever the caller is.
    const target = await callTarget(
      {
        servers: this.config.servers,
        view: (selection) => this.#view(selection),
        needsListing: (spec) => this.#needsListing(spec),
        list: (spec) => this.#list(spec),
      },
      namespace,
      tool,
      ctx.selection,
    );
    namespace = target.namespace;
    const pool = this.poolFor(namespace);
    const untrusted = this.#untrusted(pool.spec);
    if (untrusted) throw new McpxError("untrusted-config", untrusted.message);
    const realName = target.tool;
    for (const key of [ctx.session, ctx.parentSession]) if (key) this.sessions.touch(key);
    try {
      return await this.#callOnce(pool, namespace, realName, args, ctx, options);
    } catch (error) {
      // A remote that restarted forgot our session; the call never ran, so run it once more.
      if (!(error instanceof SessionLostError)) throw error;
      log(
        "info",
        "call.retry",
        "{namespace}.{tool}: the server forgot our session; running the call again on a new connection",
        { namespace, tool: realName },
      );
      return await this.#callOnce(pool, namespace, realName, args, ctx, options);
    }
  }

  async #callOnce(
    pool: Pool,
    namespace: string,
    realName: string,
    args: Record<string, unknown>,
    ctx: CallerContext,
    options: CallOptions,
  ): Promise<unknown> {
    const span = newSpan("call");
    const about = {
      namespace,
      tool: realName,
      server: pool.spec.name,
      ...(ctx.session ? { session: ctx.session } : {}),
      ...(ctx.run ? { run: ctx.run } : {}),
      bytesIn: jsonByteLength(args),
    };
    const asked = performance.now();
    const own = options.timeoutMs;
    // A script passes its call's `timeoutMs` option; `mcpx call` names its `--timeout`.
    const ownSetting = options.timeoutSetting ?? (ctx.run ? "timeoutMs" : "--timeout");
    let lease;
    try {
      lease = await pool.lease(ctx, {
        signal: options.signal,
        waitMs: own,
        waitSetting: ownSetting,
      });
      if (own !== undefined && own - lease.waitedMs < 1) {
        lease.release();
        throw budgetSpentError(pool.spec, lease.instance.key, lease.waitedMs, own, ownSetting);
      }
    } catch (error) {
      // No instance: the call hangs off the daemon, and ends here.
      const leaseMs = elapsed(asked);
      log("info", "call.start", "{namespace}.{tool} called", about, { span, parent: daemonSpan() });
      log("warn", "call.end", "{namespace}.{tool} failed after {ms} ms: {error}", {
        ...about,
        ms: leaseMs,
        leaseMs,
        ok: false,
        error: describeFull(error).split("\n")[0],
        bytesOut: 0,
      }, { span });
      throw error;
    }
    const instance = this.#spans.get(lease.instance) ?? daemonSpan();
    const leaseMs = elapsed(asked);
    log("info", "call.start", "{namespace}.{tool} called on {instance} ({key})", {
      ...about,
      key: lease.instance.key,
      instance,
      pid: lease.instance.pid,
      leaseMs,
    }, { span, parent: instance });
    if (options.trace) traceCall(options.trace, { ...about, instance, lease, span });
    if (lease.waitedMs > 0) {
      log("info", "lease.wait", "waited {waitedMs} ms for a free instance of {server} ({key})", {
        server: pool.spec.name,
        key: lease.instance.key,
        waitedMs: lease.waitedMs,
      }, { span });
    }
    const started = performance.now();
    let result: unknown;
    let failure: unknown;
    // The caller's limit covers the wait and the call: the call gets what is left.
    const callMs = own !== undefined ? own - lease.waitedMs : pool.spec.pool.callTimeoutMs;
    try {
      result = await lease.instance.callTool(realName, args, {
        timeoutMs: callMs,
        signal: options.signal,
      });
      const rebuilt = this.#rebuilt.get(lease.instance);
      if (rebuilt) {
        this.#rebuilt.delete(lease.instance);
        result = withRebuiltNote(result, lease.instance, rebuilt);
      }
      return result;
    } catch (error) {
      failure = error instanceof TimeoutError
        ? callTimeoutError(
          pool.spec,
          lease.instance.key,
          realName,
          callMs,
          own !== undefined ? ownSetting : undefined,
          error,
        )
        : error;
      throw failure;
    } finally {
      lease.release();
      const ms = elapsed(started);
      const error = failure !== undefined
        ? describeFull(failure).split("\n")[0]
        : toolErrorText(result);
      const end = {
        ...about,
        key: lease.instance.key,
        instance,
        ms,
        leaseMs,
        ok: error === undefined,
        ...(error === undefined ? {} : { error }),
        ...(failure === undefined && error !== undefined ? { isError: true } : {}),
        bytesOut: result === undefined ? 0 : jsonByteLength(result),
      };
      if (error === undefined) {
        log("info", "call.end", "{namespace}.{tool} answered in {ms} ms", end, { span });
      } else {
        log("warn", "call.end", "{namespace}.{tool} failed after {ms} ms: {error}", end, { span });
      }
      if (lease.instance.key.startsWith("call:")) await lease.instance.close("stop");
    }
  }

  /**
   * Lists servers and writes the schema cache.
   *
   * @param names Server names (`mcpServers` keys) or namespaces; all enabled servers when empty.
   * @param missingOnly Only servers with no usable cache entry.
   * @returns Per server: tools count or the error message, and `listedBy` when
   *   the listing went through a process that was already running (a server
   *   whose code changed since it started still answers with its old tools;
   *   `mcpx restart` replaces it, decision 0025).
   */
  async list(
    names: string[] = [],
    missingOnly = false,
  ): Promise<Record<string, ListResult>> {
    const specs = this.#select(names);
    const out: Record<string, ListResult> = {};
    const refused = (s: ServerSpec) => s.unavailable ?? this.#untrusted(s);
    for (const spec of specs) {
      const why = refused(spec);
      if (why) setOwn(out, spec.name, { error: why.message });
    }
    const todo = specs.filter((s) => !refused(s) && (!missingOnly || this.#needsListing(s)));
    // Asked for entries this daemon holds: the file lost them (damaged, deleted), so write it again.
    if (todo.length < specs.filter((s) => !refused(s)).length) this.#persist();
    const results = await Promise.all(todo.map((spec) => this.#list(spec)));
    await this.#cacheWrite;
    // Discovery reads the file: a listing it cannot store (a full disk) is an error, said as one.
    if (todo.length && this.#cacheWriteError) throw this.#cacheWriteError;
    todo.forEach((spec, i) => {
      const entry = results[i];
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

  /** The server starts in progress now, oldest first (what a waiting CLI shows). */
  starting(): StartingRow[] {
    return this.#startingNow.rows();
  }

  /** Rows for `mcpx status`, one per enabled or disabled server. */
  status(): StatusRow[] {
    const now = Date.now();
    return this.config.servers.map((spec) => {
      const pool = this.#pools.get(spec.poolId);
      const cached = own(this.#cache.servers, listingOf(spec).name);
      const instances = spec.disabled || !pool ? [] : pool.instances.map((i) => ({
        id: i.id,
        pid: i.pid,
        key: i.key,
        holders: pool.holders(i),
        active: i.active,
        uptimeMs: now - i.startedAt,
        calls: i.calls,
        ...(i.lastError ? { lastError: i.lastError } : {}),
        ...(i.stderrTail ? { stderrTail: i.stderrTail } : {}),
      }));
      const failure = pool?.failure;
      const untrusted = spec.unavailable ? undefined : this.#untrusted(spec);
      return statusRow(untrusted ? { ...spec, unavailable: untrusted } : spec, cached, {
        instances,
        ...(failure
          ? {
            failure: {
              message: failure.error.message,
              count: failure.count,
              retryInMs: Math.max(0, failure.retryAt - now),
              ...(failure.error.stderrTail ? { stderrTail: failure.error.stderrTail } : {}),
            },
          }
          : {}),
      });
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
    const keys = session === undefined
      ? undefined
      : [`session:${session}`, `parent-session:${session}`];
    return await pool.stop("restart", keys);
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
    const keys = [`session:${key}`, `parent-session:${key}`];
    const stopping: Promise<void>[] = [];
    let count = 0;
    for (const pool of this.#pools.values()) {
      const { instances, stopped } = pool.end(keys, "stop");
      for (const instance of instances) this.#why.set(instance, why);
      count += instances.length;
      stopping.push(stopped);
    }
    await Promise.all(stopping);
    log("info", "session.end", "session {session} ended: {count} instances stop ({why})", {
      session: key,
      count,
      why,
    });
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
    for (const pool of this.#pools.values()) count += pool.releaseRun(run);
    if (count) {
      log("info", "lease.run-end", "run {run} ended: {count} exclusive instances are free", {
        run,
        count,
      });
    }
    return count;
  }

  /**
   * The lease waits reported under `token` (a run id, or the `notify` token
   * of a call) with an id above `after`: at once when there are some, else
   * when one begins, or `[]` after `holdMs` (at most 60 s).
   */
  waits(token: string, after: number, holdMs: number, signal?: AbortSignal): Promise<LeaseWait[]> {
    return this.leases.poll(token, after, Math.min(Math.max(0, holdMs), 60_000), signal);
  }

  /**
   * Makes a named session (`mcpx session new`).
   * @param name Default: a fresh 8-character name.
   * @param ttlMs End it after this long without a call; absent: never.
   * @throws {UsageError} for a malformed name; {McpxError} `session-exists` for a taken one;
   *   {StorageError} when its record cannot be written (engine/sessions.ts `create`).
   */
  async sessionNew(name: string | undefined, ttlMs?: number): Promise<SessionRow> {
    const chosen = name ?? freshSessionName();
    if (!SESSION_NAME.test(chosen)) throw new UsageError(sessionNameProblem(chosen));
    if (this.sessions.get(chosen)) {
      throw new McpxError(
        "session-exists",
        `session "${chosen}" already exists; rejoin it with --session ${chosen}, or end it first with \`mcpx session end ${chosen}\``,
      );
    }
    const session = await this.sessions.create(chosen, ttlMs);
    log("info", "session.new", "named session {session} made", {
      session: session.name,
      ...(ttlMs ? { ttlMs } : {}),
    });
    // A new key known in advance: `min` warms its instances.
    void this.warm();
    return { ...session, live: [] };
  }

  /** Every named session with the namespaces where it has a live instance now. */
  sessionList(): SessionRow[] {
    return this.sessions.list().map((s) => ({ ...s, live: this.#liveNamespaces(s.name) }));
  }

  /**
   * Ends a named session: its instances stop ({@linkcode Daemon.endSession})
   * and its record is deleted.
   * @returns How many instances stop.
   * @throws {NotFoundError} naming the known sessions, nearest first.
   */
  async sessionEnd(name: string): Promise<number> {
    if (!this.sessions.get(name)) {
      const known = this.sessions.list().map((s) => s.name);
      const near = nearest(name, known);
      throw new NotFoundError(
        `unknown session "${name}"; ${
          known.length
            ? `named sessions: ${[...near, ...known.filter((k) => !near.includes(k))].join(", ")}`
            : "there are no named sessions"
        } (\`mcpx session ls\` lists them)`,
        near,
      );
    }
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
    for (const pool of this.#pools.values()) n += await pool.reap(now);
    // `min` instances that exited (crash, restart, ended session) come back.
    void this.warm();
    return n;
  }

  /** Namespaces (aliases included) with a live instance keyed by session `name`. */
  #liveNamespaces(name: string): string[] {
    const keys = [`session:${name}`, `parent-session:${name}`];
    const out: string[] = [];
    for (const [namespace, spec] of this.#byNamespace) {
      const pool = this.#pools.get(spec.poolId);
      if (pool?.instances.some((i) => !i.closed && keys.includes(i.key))) out.push(namespace);
    }
    return out;
  }

  /** The smallest idle timeout of any pool, in ms (drives the reaper's period). */
  get shortestIdleMs(): number {
    let min = Infinity;
    for (const pool of this.#pools.values()) {
      if (pool.spec.pool.idleTimeoutMs > 0) min = Math.min(min, pool.spec.pool.idleTimeoutMs);
    }
    return min;
  }

  /**
   * Starts the instances each pool's `min` keeps warm, for every key known
   * before a call: `global`, and each named session of a session-scoped
   * server (as `session:<name>`). Pools with `min` 0 start nothing.
   */
  async warm(): Promise<void> {
    const named = this.sessions.list().map((s) => `session:${s.name}`);
    await Promise.all([...this.#pools.values()].map((pool) => {
      if (this.#untrusted(pool.spec)) return;
      const { scope } = pool.spec.pool;
      const keys = scope === "global"
        ? ["global"]
        : scope === "session" || scope === "parent-session"
        ? named
        : [];
      return pool.warm(keys);
    }));
  }

  /** Flushes the schema cache and stops every instance (process groups included). */
  async shutdown(): Promise<void> {
    this.leases.close();
    await this.#cacheWrite;
    await Promise.all([...this.#pools.values()].map((p) => p.stop("stop")));
    await Promise.all(this.#exitRecords);
    await this.sessions.flush();
  }

  #select(names: string[]): ServerSpec[] {
    const enabled = this.config.servers.filter((s) => !s.disabled);
    if (names.length === 0) return enabled;
    // One map, not a search per name: `ls` may ask for thousands of servers at once.
    const byName = new Map<string, ServerSpec>();
    for (const s of enabled) {
      // The first server in file order that has the name, as either, wins.
      if (!byName.has(s.name)) byName.set(s.name, s);
      if (!byName.has(s.namespace)) byName.set(s.namespace, s);
    }
    return names.map((name) => {
      const spec = byName.get(name);
      if (!spec) {
        throw new NotFoundError(
          `unknown namespace "${name}"; run \`mcpx ls\` to see the namespaces`,
          enabled.map((s) => s.namespace),
        );
      }
      return spec;
    });
  }

  // An alias reads and fills its target's entry (config/types.ts `listingOf()`): one listing for both.
  #needsListing(spec: ServerSpec): boolean {
    const { name, listingId } = listingOf(spec);
    return needsListing(own(this.#cache.servers, name), listingId);
  }

  #list(spec: ServerSpec): Promise<CachedServer> {
    const { name } = listingOf(spec);
    const pending = this.#listing.get(name);
    if (pending) return pending;
    const promise = this.#listNow(spec).finally(() => this.#listing.delete(name));
    this.#listing.set(name, promise);
    return promise;
  }

  async #listNow(spec: ServerSpec): Promise<CachedServer> {
    const pool = this.#pools.get(spec.poolId)!;
    const listing = listingOf(spec);
    const previous = own(this.#cache.servers, listing.name);
    let entry: CachedServer;
    // A global server lists through the instance calls will use; any other
    // scope lists through a throwaway per-call instance.
    const ctx: CallerContext = {};
    const asked = performance.now();
    const askedAt = Date.now();
    this.#listedBy.delete(listing.name);
    try {
      // Listing is not a caller: it waits for a call in flight, not for a run's whole hold.
      const lease = await pool.lease(ctx, { ignoreRunHolds: true });
      try {
        const { tools, skipped } = await lease.instance.listTools();
        if (lease.instance.startedAt < askedAt) {
          this.#listedBy.set(listing.name, {
            ...(lease.instance.pid ? { pid: lease.instance.pid } : {}),
            startedAt: new Date(lease.instance.startedAt).toISOString(),
          });
        }
        const span = this.#spans.get(lease.instance) ?? daemonSpan();
        log("info", "server.list", "listed {server}: {tools} tools in {ms} ms", {
          server: spec.name,
          tools: tools.length,
          ms: elapsed(asked),
        }, { span });
        await addDeclarations(tools);
        if (skipped.length) {
          log("warn", "server.skip", "{server}: {count} malformed tools skipped", {
            server: spec.name,
            count: skipped.length,
            skipped,
          }, { span });
        }
        const info = lease.instance.client.getServerVersion();
        const instructions = lease.instance.client.getInstructions();
        entry = {
          listedAt: new Date().toISOString(),
          listingId: listing.listingId,
          ...(info
            ? { serverInfo: { name: info.name, version: info.version, title: info.title } }
            : {}),
          ...(instructions ? { instructions } : {}),
          tools,
          ...(skipped.length ? { skipped } : {}),
        };
      } finally {
        lease.release();
        if (lease.instance.key.startsWith("call:")) await lease.instance.close("stop");
      }
    } catch (error) {
      const stderr = error instanceof ServerError ? error.stderrTail : undefined;
      const same = previous?.listingId === listing.listingId ? previous : undefined;
      // The failure, how many in a row and when discovery may try again; no
      // `listedAt` (discovery/cache_entry.ts), so it never reads as "0 tools".
      entry = {
        ...(same?.listedAt
          ? { listedAt: same.listedAt, tools: same.tools, serverInfo: same.serverInfo }
          : { tools: [] }),
        listingId: listing.listingId,
        error: failedListing(same, { message: describeFull(error), stderr }, Date.now()),
      };
      log("warn", "server.list", "listing {server} failed: {error}", {
        server: spec.name,
        error: describeFull(error).split("\n")[0],
      });
    }
    setOwn(this.#cache.servers, listing.name, entry);
    this.#persist();
    return entry;
  }

  #persist(): void {
    this.#views.clear();
    const snapshot = structuredClone(this.#cache);
    this.#cacheWrite = this.#cacheWrite
      .then(() => writeSchemaCache(this.#cachePath, snapshot, this.redactor))
      .then(() => this.#cacheWriteError = undefined, (error) => {
        this.#cacheWriteError = error;
        log("error", "daemon.error", "writing the schema cache failed: {error}", {
          error: describe(error),
        });
      });
  }

  /** The namespaces `selection` shows of the schema cache, built once per cache change. */
  #view(selection: ProfileSelection): NamespaceView {
    const key = selectionKey(selection);
    let view = this.#views.get(key);
    if (!view) {
      view = namespacesFromCache(this.config.servers, this.#cache, selection);
      this.#views.set(key, view);
    }
    return view;
  }

  #started(instance: Instance): void {
    const span = newSpan("instance");
    this.#spans.set(instance, span);
    const spec = instance.spec;
    const template = instance.pid
      ? "server {server} started as pid {pid} for {key} in {startMs} ms"
      : "server {server} connected to {command} for {key} in {startMs} ms";
    log("info", "server.start", template, {
      server: spec.name,
      namespace: spec.namespace,
      localId: instance.id,
      ...(instance.pid ? { pid: instance.pid } : {}),
      key: instance.key,
      transport: spec.transport,
      command: spec.transport === "stdio"
        ? [spec.command, ...(spec.args ?? [])].join(" ")
        : spec.url,
      startMs: Date.now() - instance.startedAt,
    }, { span, parent: daemonSpan() });
    const named = sessionOfKey(instance.key);
    if (this.#evictedKeys.delete(`${spec.poolId}\0${instance.key}`)) {
      // Its earlier instance was stopped to make room for another key (#evicted).
      this.#rebuilt.set(instance, "evicted");
    } else if (named && this.sessions.get(named) && this.sessions.served(named, spec.namespace)) {
      // The session had an instance here before (an earlier daemon, a restart, a reap).
      this.#rebuilt.set(instance, "rebuilt");
      log(
        "info",
        "session.rebuild",
        "named session {session} got a new instance of {server}; the earlier one and its state are gone",
        { session: named, server: spec.name, namespace: spec.namespace, localId: instance.id },
        { span },
      );
    }
    // Relist when the cache has nothing, or only a failure: the server works now.
    const entry = own(this.#cache.servers, listingOf(instance.spec).name);
    const failedBefore = lastFailure(entry) !== undefined;
    if (
      (this.#needsListing(instance.spec) || failedBefore) &&
      !this.#listing.has(listingOf(instance.spec).name)
    ) {
      queueMicrotask(() => this.#list(instance.spec).catch(() => {}));
    }
  }

  /**
   * Records a stdio server's stdout line that is not JSON-RPC as a warning
   * (the line also stays in its stderr tail). The first
   * {@link STRAY_LINES_LOGGED} per instance are logged; the last of them says so.
   */
  #strayLine(instance: Instance, line: string, count: number): void {
    if (count > STRAY_LINES_LOGGED) return;
    log(
      "warn",
      "server.stdout",
      "server {server} wrote a line that is not JSON-RPC on stdout: {line}",
      {
        server: instance.spec.name,
        localId: instance.id,
        ...(instance.pid ? { pid: instance.pid } : {}),
        line,
        count,
        ...(count === STRAY_LINES_LOGGED ? { more: "later lines go only to its stderr tail" } : {}),
      },
      { span: this.#spans.get(instance) ?? daemonSpan() },
    );
  }

  /** Whether `key`'s instance must not be stopped to make room: a named session within its ttl. */
  #keepKey(key: string): boolean {
    const name = sessionOfKey(key);
    if (!name || !this.sessions.get(name)) return false;
    return !this.sessions.expired().some((s) => s.name === name);
  }

  /** An idle instance is stopped to make room in a full pool: logged, and its key's next call told. */
  #evicted(instance: Instance, forKey: string): void {
    this.#why.set(instance, "evicted");
    if (!instance.key.startsWith("call:")) {
      this.#evictedKeys.add(`${instance.spec.poolId}\0${instance.key}`);
    }
    log(
      "info",
      "pool.evict",
      "{server} is at max {max}: its least recently used idle instance ({key}) stops to make room for {forKey}",
      {
        server: instance.spec.name,
        max: instance.spec.pool.max,
        localId: instance.id,
        key: instance.key,
        forKey,
        idleMs: Date.now() - instance.lastUsedAt,
      },
      { span: this.#spans.get(instance) ?? daemonSpan() },
    );
  }

  #exited(instance: Instance): void {
    const span = this.#spans.get(instance) ?? daemonSpan();
    const record = instance.exitSettled().then(() => {
      const exit = instance.exit;
      const why = this.#why.get(instance) ?? exit?.reason ?? "crash";
      log(why === "crash" ? "warn" : "info", "server.exit", "server {server} exited ({why})", {
        server: instance.spec.name,
        localId: instance.id,
        ...(instance.pid ? { pid: instance.pid } : {}),
        key: instance.key,
        why,
        ...(exit?.code !== undefined && exit.code !== null ? { code: exit.code } : {}),
        ...(exit?.signal ? { signal: exit.signal } : {}),
        uptimeMs: Date.now() - instance.startedAt,
        calls: instance.calls,
      }, { span });
    }).finally(() => this.#exitRecords.delete(record));
    this.#exitRecords.add(record);
  }
}

/** The error for a server the configuration keeps from starting. */
function unavailableError(spec: ServerSpec): McpxError {
  return new McpxError("server-unavailable", spec.unavailable?.message ?? "");
}

/** How many non-JSON stdout lines of one instance reach the log (`server.stdout`). */
const STRAY_LINES_LOGGED = 20;

async function addDeclarations(tools: CachedTool[]): Promise<void> {
  try {
    const { toolDeclaration } = await import("../discovery/typescript.ts");
    await Promise.all(tools.map(async (tool) => {
      try {
        tool.declaration = await toolDeclaration(tool, toIdentifier(tool.name));
      } catch { /* `mcpx types` generates it on demand */ }
    }));
  } catch (error) {
    log("warn", "daemon.error", "type generation unavailable: {error}", { error: describe(error) });
  }
}

function describeFull(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Milliseconds since `start` (a `performance.now()`), to 0.1 ms. */
function elapsed(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

/** The text of a tool result that reports `isError` (first 300 characters), else undefined. */
function toolErrorText(result: unknown): string | undefined {
  const r = result as { isError?: boolean; content?: { type?: string; text?: string }[] };
  if (!r || r.isError !== true) return undefined;
  const text = (r.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join(" ");
  return (text.split("\n")[0] || "the tool reported an error").slice(0, 300);
}
