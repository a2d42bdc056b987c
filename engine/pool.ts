/**
 * A pool of instances of one server, keyed by scope, handed out as leases.
 *
 * Identity: one pool per `poolId` (a hash of everything that changes the
 * process or how it is handed out, see config/pool_id.ts). Inside a pool an
 * instance serves one scope key (engine/scope_key.ts: `global`,
 * `session:<id>`, `cwd:<dir>`, …; two keys are one when their texts are);
 * `shared` instances serve every caller with that key at once, `exclusive`
 * ones one lease at a time (a script run holds one from its first call to
 * its end: engine/holds.ts). `max` bounds live instances per pool; a full
 * pool makes room by stopping its least recently used idle instance.
 * Spec 000, "Sharing and scope" and "Honest failure reporting"; issue 8.
 *
 * @module
 */

import { startedIn } from "../config/server_directory.ts";
import type { ServerSpec } from "../config/types.ts";
import type { ServerError } from "../core/errors.ts";
import type { Handshake } from "./handshake.ts";
import { type Handed, Instance, type StopReason } from "./instance.ts";
import type { Lease, LeaseOptions, PoolHooks, StartFailure } from "./pool_types.ts";
import {
  type CallerContext,
  formatScopeKey,
  type ScopeKey,
  scopeKey,
  scopeKeyIn,
} from "./scope_key.ts";
import { type Holder, LeaseBoard, type LeaseWait } from "./lease_board.ts";
import { Holds, type RunHold } from "./holds.ts";
import { leaseTimeoutError } from "./lease_errors.ts";
import { pidAlive } from "../core/pid_alive.ts";
import { coolingDown, nextFailure } from "./start_cooldown.ts";
import { PidWatch } from "./pid_watch.ts";
export type { Lease, LeaseOptions, PoolHooks, StartFailure } from "./pool_types.ts";
export { FIRST_BACKOFF_MS, MAX_BACKOFF_MS } from "./start_cooldown.ts";
export { PID_CHECK_MS } from "./pid_watch.ts";
/** How often a caller waiting for a run's instance checks that the run's process lives, in ms. */
export const RUN_CHECK_MS = 1_000;

/** Instances of one server. */
export class Pool {
  readonly id: string;
  readonly spec: ServerSpec;
  #env: Record<string, string>;
  #hooks: PoolHooks;
  #instances = new Set<Instance>();
  /** Starts in progress, by the text of their key. */
  #starting = new Map<string, Promise<Instance>>();
  /** Leases in use, and exclusive instances runs keep between their calls (engine/holds.ts). */
  #holds = new Holds<Instance>();
  #waiters: (() => void)[] = [];
  /** Instances to stop when their last holder releases them (`end`), with the reason. */
  #ending = new Map<Instance, StopReason>();
  /** Instances being stopped to make room for another key. */
  #evicting = new Set<Instance>();
  /**
   * Instances just started, until the caller that started them resumes:
   * never stopped to make room meanwhile (another waiter wakes first).
   */
  #unclaimed = new Set<Instance>();
  #board: LeaseBoard;
  #warming = false;
  /** Stops `pid`-keyed instances whose process exited, while there are some. */
  #pids = new PidWatch(
    () => this.stopOrphans(),
    () => this.instances.some((i) => i.scopeKey.kind === "pid"),
  );
  /** The last start failure, cleared by a successful start. */
  failure?: StartFailure;

  /**
   * @param board Where waits are posted; the daemon passes its one board so
   *   waits across pools are seen together.
   */
  constructor(
    spec: ServerSpec,
    env: Record<string, string>,
    hooks: PoolHooks = {},
    board: LeaseBoard = new LeaseBoard(),
  ) {
    this.id = spec.poolId;
    this.spec = spec;
    this.#env = env;
    this.#hooks = hooks;
    this.#board = board;
  }

  /** Live instances, oldest first. */
  get instances(): Instance[] {
    return [...this.#instances];
  }

  /** How many leases are held on `instance` now. */
  holders(instance: Instance): number {
    return this.#holds.leases(instance);
  }

  /** The run holding exclusive `instance` between its calls, if any. */
  runHold(instance: Instance): Readonly<RunHold> | undefined {
    return this.#holds.run(instance);
  }

  /**
   * Leases an instance for the caller's scope key, starting one when none
   * fits. The start is bounded by `startTimeout` (in Instance.start); the
   * wait for an instance others hold by `leaseTimeout`, or `options.waitMs`
   * when shorter. A pool at `max` asked for a new key stops its least
   * recently used idle instance first (`whenFull: "evict-idle"`), unless
   * `keep` protects it. An exclusive instance is held by a script run from
   * its first lease until {@linkcode Pool.releaseRun}.
   *
   * @throws {ServerError} when the server fails to start (or is cooling
   *   down after failures); {TimeoutError} (`bound: "leaseTimeout"`) naming
   *   the server, key, holders and what raises the limit when no instance
   *   frees up in time; {LeaseDeadlockError} when a run would wait for a run
   *   that waits for it.
   */
  async lease(ctx: CallerContext, options: LeaseOptions = {}): Promise<Lease> {
    const { signal } = options;
    const key = scopeKey(this.spec.pool.scope, ctx, this.spec.name);
    const text = formatScopeKey(key);
    const ownLimit = options.waitMs !== undefined && options.waitMs < this.spec.pool.leaseTimeoutMs;
    const limit = ownLimit ? options.waitMs! : this.spec.pool.leaseTimeoutMs;
    const setting = ownLimit ? options.waitSetting ?? "--timeout" : "leaseTimeout";
    const { sharing, scope, max } = this.spec.pool;
    let waited = 0;
    let wait: LeaseWait | undefined;
    try {
      while (true) {
        signal?.throwIfAborted();
        const instance = this.#free(text, ctx, options.ignoreRunHolds);
        if (instance) return this.#hold(instance, ctx, waited);
        // A keyed scope has one live instance per key (spec 000, "Sharing and
        // scope"): a second caller of a session waits for that session's
        // process rather than getting a second browser. Only `global` may run
        // several instances of its one key, up to `max`.
        const keyTaken = scope !== "global" && this.#hasKey(text);
        if (!keyTaken && this.#room()) {
          const started = await this.#start(key);
          this.#unclaimed.delete(started);
          if (sharing === "shared" || this.#holds.available(started, ctx, options.ignoreRunHolds)) {
            return this.#hold(started, ctx, waited);
          }
          continue;
        }
        if (!keyTaken && this.spec.pool.whenFull === "evict-idle") {
          const victim = this.#victim();
          if (victim) {
            await this.#evict(victim, key);
            continue;
          }
        }
        const pending = this.#starting.get(text);
        if (pending && sharing === "shared") return this.#hold(await pending, ctx, waited);
        const holders = this.#holdersFor(keyTaken ? text : undefined);
        const remaining = limit - waited;
        if (remaining <= 0) {
          const inUse = this.instances.map((i) => ({
            key: i.key,
            holders: this.#holds.holdersOf(i),
            lastUsedAt: i.lastUsedAt,
          }));
          throw leaseTimeoutError(this.spec, key, limit, setting, inUse, !keyTaken);
        }
        // A run waiting behind its own other call is told nothing: it waits for itself.
        const told = holders.some((h) => !ctx.run || h.run !== ctx.run);
        const token = told ? ctx.notify ?? ctx.run : undefined;
        const previous = wait;
        wait = this.#board.post({
          ...(token ? { token } : {}),
          ...(ctx.run ? { run: ctx.run } : {}),
          ...(ctx.pid ? { pid: ctx.pid } : {}),
          namespace: this.spec.namespace,
          server: this.spec.name,
          key: text,
          scope: this.spec.pool.scope,
          since: wait?.since ?? Date.now(),
          limitMs: limit,
          setting,
          holders,
          ...(keyTaken ? {} : { full: { max } }),
        }, wait);
        if (told && wait !== previous) options.onWait?.(wait);
        // A run's hold ends when its process does: look again now and then.
        const poll = holders.some((h) => h.run) ? Math.min(remaining, RUN_CHECK_MS) : remaining;
        const before = Date.now();
        await this.#waitForChange(poll, signal);
        waited += Date.now() - before;
      }
    } finally {
      this.#board.remove(wait);
    }
  }

  /**
   * Drops every hold run `run` has on this pool's instances (the run ended),
   * so the callers waiting for them go on.
   * @returns How many holds were dropped.
   */
  releaseRun(run: string): number {
    const freed = this.#holds.releaseRun(run);
    for (const instance of freed) instance.lastUsedAt = Date.now();
    if (freed.length) this.#wake();
    return freed.length;
  }

  /** Starts an instance for `key` if none is live (listing). */
  async ensure(ctx: CallerContext): Promise<Instance> {
    const lease = await this.lease(ctx);
    lease.release();
    return lease.instance;
  }

  /**
   * Stops every instance (or those whose key is one of `keys`) and records why.
   * @returns How many were stopped.
   */
  async stop(reason: StopReason, keys?: readonly ScopeKey[]): Promise<number> {
    const doomed = this.instances.filter((i) => keys === undefined || scopeKeyIn(i.scopeKey, keys));
    await Promise.all(doomed.map((i) => i.close(reason)));
    return doomed.length;
  }

  /**
   * Stops the instances whose key is one of `keys` once nobody holds them: an
   * idle one at once, a held one when its current lease is released. No new
   * lease is granted on them meanwhile; a caller with the same key waits and
   * then gets a fresh instance.
   *
   * @returns The instances that will stop (synchronously chosen), and a
   *   promise settled when the idle ones have stopped (held ones stop later).
   */
  end(
    keys: readonly ScopeKey[],
    reason: StopReason,
  ): { instances: Instance[]; stopped: Promise<void> } {
    const doomed = this.instances.filter((i) => !i.closed && scopeKeyIn(i.scopeKey, keys));
    const now: Promise<void>[] = [];
    for (const instance of doomed) {
      // A run's hold between its calls does not keep an ended session's instance.
      if (!this.holders(instance) && instance.active === 0) now.push(instance.close(reason));
      else this.#ending.set(instance, reason);
    }
    return { instances: doomed, stopped: Promise.all(now).then(() => {}) };
  }

  /**
   * Stops the `pid:`-keyed instances whose process has exited (spec 000,
   * "Sharing and scope": `pid`-scoped instances stop as soon as that pid
   * exits). Runs every {@linkcode PID_CHECK_MS} while such an instance lives.
   * @returns How many were stopped.
   */
  async stopOrphans(): Promise<number> {
    const doomed = this.instances.filter((i) => {
      const key = i.scopeKey;
      if (key.kind !== "pid" || i.closed || pidAlive(key.value)) return false;
      this.#hooks.pidExited?.(i, key.value);
      return true;
    });
    await Promise.all(doomed.map((i) => i.close("stop")));
    return doomed.length;
  }

  /**
   * Stops instances unused for longer than `idleTimeoutMs` and not held (a
   * run's hold counts, while its process lives). `min` instances of every
   * key stay however idle they are (one for a keyed scope, which runs one
   * instance per key); the longest idle go first.
   * @returns How many were stopped.
   */
  async reap(now = Date.now()): Promise<number> {
    this.#dropDeadRuns();
    const idle = this.spec.pool.idleTimeoutMs;
    if (idle <= 0) return 0;
    // The most recently used `min` of each key are kept.
    const byKey = Map.groupBy(this.instances.filter((i) => !i.closed), (i) => i.key);
    const kept = new Set(
      [...byKey.values()].flatMap((group) =>
        group.sort((a, b) => b.lastUsedAt - a.lastUsedAt).slice(0, this.#perKey())
      ),
    );
    const doomed = this.instances.filter((i) =>
      !kept.has(i) && !this.#holds.held(i) && i.active === 0 && now - i.lastUsedAt >= idle
    );
    await Promise.all(doomed.map((i) => i.close("idle")));
    return doomed.length;
  }

  /**
   * Starts the instances `min` asks for (spec 000, "Sharing and scope") for
   * each of `keys`, the keys known before a call (decision 0009): up to `min`
   * for `global`, one for another scope's key. Never exceeds `max` or stops
   * an instance; failures are recorded (their cooldown holds); a warm-up
   * already running makes this one return.
   */
  async warm(keys: readonly ScopeKey[]): Promise<void> {
    if (this.spec.pool.min < 1 || this.#warming) return;
    this.#warming = true;
    try {
      for (const key of keys) {
        const want = this.#perKey();
        const live = () => this.#live(formatScopeKey(key));
        for (let tries = 0; tries < want && live() < want && this.#room(); tries++) {
          this.#unclaimed.delete(await this.#start(key));
        }
      }
    } catch {
      /* the failure is kept in `failure` for ls and status */
    } finally {
      this.#warming = false;
    }
  }

  /** How many instances `min` keeps per key: `min` for global, at most one for a keyed scope. */
  #perKey(): number {
    const { min, scope } = this.spec.pool;
    return scope === "global" ? min : Math.min(min, 1);
  }

  /** Live and starting instances for the key whose text is `key`. */
  #live(key: string): number {
    const live = this.instances.filter((i) => !i.closed && i.key === key).length;
    return live + (this.#starting.has(key) ? 1 : 0);
  }

  /** Whether one more instance may start (live and starting ones below `max`). */
  #room(): boolean {
    return this.#instances.size + this.#starting.size < this.spec.pool.max;
  }

  /**
   * The least recently used instance nobody holds or uses and nobody asked
   * to keep (`keep`), to stop for a caller of a full pool; undefined if none.
   */
  #victim(): Instance | undefined {
    this.#dropDeadRuns();
    let victim: Instance | undefined;
    for (const i of this.#instances) {
      if (
        i.closed || this.#ending.has(i) || this.#evicting.has(i) || this.#unclaimed.has(i) ||
        this.#holds.held(i) || i.active > 0 || this.#hooks.keep?.(i.scopeKey)
      ) continue;
      if (!victim || i.lastUsedAt < victim.lastUsedAt) victim = i;
    }
    return victim;
  }

  /** Stops `victim` to make room for `forKey`; resolves once its process is gone. */
  async #evict(victim: Instance, forKey: ScopeKey): Promise<void> {
    this.#evicting.add(victim);
    this.#hooks.evicted?.(victim, forKey);
    try {
      await victim.close("stop");
    } finally {
      this.#evicting.delete(victim);
    }
  }

  /** Who holds the instances for the key whose text is `key` (every instance when undefined: a full pool). */
  #holdersFor(key: string | undefined): Holder[] {
    return this.instances.filter((i) => key === undefined || i.key === key)
      .flatMap((i) => this.#holds.holdersOf(i));
  }

  /** Drops the holds of runs whose `mcpx run` process is gone (killed, so it never said). */
  #dropDeadRuns(): void {
    const dropped = this.#holds.dropDeadRuns();
    for (const { instance, hold } of dropped) this.#hooks.runGone?.(instance, hold.run, hold.pid!);
    if (dropped.length) this.#wake();
  }

  #hasKey(key: string): boolean {
    if (this.#starting.has(key)) return true;
    for (const instance of this.#instances) {
      if (!instance.closed && instance.key === key) return true;
    }
    return false;
  }

  /**
   * An instance for `key` the caller may lease now: for `shared`, any; for
   * `exclusive`, one with no lease and no other run's hold, the caller's own
   * run's first.
   */
  #free(key: string, ctx: CallerContext, ignoreRunHolds = false): Instance | undefined {
    if (this.#holds.anyRun) this.#dropDeadRuns();
    let found: Instance | undefined;
    for (const instance of this.#instances) {
      if (
        instance.closed || instance.key !== key || this.#ending.has(instance) ||
        this.#evicting.has(instance)
      ) continue;
      if (this.spec.pool.sharing === "shared") return instance;
      if (!this.#holds.available(instance, ctx, ignoreRunHolds)) continue;
      if (ctx.run && this.#holds.run(instance)?.run === ctx.run) return instance;
      found ??= instance;
    }
    return found;
  }

  #hold(instance: Instance, ctx: CallerContext, waitedMs = 0): Lease {
    const end = this.#holds.add(instance, ctx, this.spec.pool.sharing === "exclusive");
    instance.lastUsedAt = Date.now();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = end();
      instance.lastUsedAt = Date.now();
      const ending = n > 0 ? undefined : this.#ending.get(instance);
      if (ending) instance.close(ending).catch(() => {});
      this.#wake();
    };
    return {
      instance,
      waitedMs,
      release,
      [Symbol.asyncDispose]: () => Promise.resolve(release()),
    };
  }

  /**
   * Adds a server another daemon started and handed over
   * (`mcpx daemon upgrade`, engine/handoff.ts), as if it had started here.
   *
   * @throws What `Instance.adopt` throws; the pool is unchanged then.
   */
  async adopt(key: ScopeKey, server: Handed, handshake: Handshake): Promise<Instance> {
    const instance = await Instance.adopt(
      startedIn(this.spec, key),
      key,
      this.#env,
      server,
      handshake,
      (i) => this.#gone(i),
      this.#hooks.startOptions?.(key),
    );
    this.#instances.add(instance);
    this.#hooks.started?.(instance);
    this.#pids.update();
    return instance;
  }

  /**
   * Takes every instance out of the pool without stopping any, for the next
   * daemon to adopt (`mcpx daemon upgrade`); the pool is empty after.
   * Holds runs had on them are dropped.
   *
   * @returns The instances taken, none of them closed.
   */
  release(): Instance[] {
    const all = this.instances.filter((i) => !i.closed);
    for (const instance of all) {
      this.#instances.delete(instance);
      this.#unclaimed.delete(instance);
      this.#holds.forget(instance);
      this.#ending.delete(instance);
    }
    this.#pids.update();
    return all;
  }

  #start(key: ScopeKey): Promise<Instance> {
    const text = formatScopeKey(key);
    const existing = this.#starting.get(text);
    if (existing) return existing;
    const cooling = coolingDown(this.spec, this.failure);
    if (cooling) return Promise.reject(cooling);
    const options = this.#hooks.startOptions?.(key);
    const promise = Instance.start(
      startedIn(this.spec, key),
      key,
      this.#env,
      (i) => this.#gone(i),
      options,
    )
      .then((instance) => {
        this.#instances.add(instance);
        this.#unclaimed.add(instance);
        this.failure = undefined;
        this.#hooks.started?.(instance);
        this.#pids.update();
        return instance;
      }, (error: ServerError) => {
        this.failure = nextFailure(this.failure, error);
        this.#hooks.failed?.(error, key, this.failure.count);
        throw error;
      })
      .finally(() => {
        this.#starting.delete(text);
        this.#wake();
      });
    this.#starting.set(text, promise);
    return promise;
  }

  #gone(instance: Instance): void {
    this.#instances.delete(instance);
    this.#unclaimed.delete(instance);
    this.#holds.forget(instance);
    this.#ending.delete(instance);
    this.#hooks.exited?.(instance);
    this.#pids.update();
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Waits until an instance is freed, started or gone, `signal` aborts (true), or `remaining` ms pass (false). */
  async #waitForChange(remaining: number, signal?: AbortSignal): Promise<boolean> {
    if (remaining <= 0) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const changed = await new Promise<boolean>((resolve) => {
      this.#waiters.push(() => resolve(true));
      timer = setTimeout(() => resolve(false), remaining);
      onAbort = () => resolve(true);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    return changed;
  }
}
