/**
 * A pool of instances of one server, keyed by scope, handed out as leases.
 *
 * Identity: one pool per `poolId` (a hash of everything that changes the
 * process or how it is handed out, see config/pool_id.ts). Inside a pool an
 * instance serves one scope key (`global`, `session:<id>`, `cwd:<dir>`, …);
 * `shared` instances serve every caller with that key at once, `exclusive`
 * ones one lease at a time. `max` bounds live instances per pool.
 * Spec 000, "Sharing and scope" and "Honest failure reporting".
 *
 * @module
 */

import process from "node:process";
import type { ServerSpec } from "../config/types.ts";
import { ServerError, TimeoutError } from "../errors.ts";
import { Instance, type StartOptions, type StopReason } from "./instance.ts";
import { scopeKey } from "./scope_key.ts";
import type { CallerContext } from "./scope_key.ts";

/** Longest cooldown after repeated start failures, in ms (spec: capped at 30 s). */
export const MAX_BACKOFF_MS = 30_000;
/** First cooldown after a start failure, in ms; doubles per failure. */
export const FIRST_BACKOFF_MS = 1_000;
/** How often the pids of `pid:`-keyed instances are checked, in ms. */
export const PID_CHECK_MS = 1_000;

/** A held instance. Release it with `release()` or `await using`. */
export interface Lease extends AsyncDisposable {
  readonly instance: Instance;
  /** How long the caller waited for a slot held by others, in ms (0: none was full). */
  readonly waitedMs: number;
  release(): void;
}

/** What the pool tells its owner. */
export interface PoolHooks {
  /** An instance finished `initialize`. */
  started?(instance: Instance): void;
  /** An instance is gone (any reason). */
  exited?(instance: Instance): void;
  /** Starting an instance for `key` failed; `count` failures in a row so far. */
  failed?(error: ServerError, key: string, count: number): void;
  /** The process a `pid:` key names is gone; `instance` is being stopped. */
  pidExited?(instance: Instance, pid: number): void;
  /**
   * How to start an instance for `key` (its start allowance, where it is
   * shown while it starts): the owner knows whether the server was ever listed.
   */
  startOptions?(key: string): StartOptions;
}

/** Start failures seen by a pool, for backoff and `mcpx status`. */
export interface StartFailure {
  count: number;
  /** Epoch ms before which no start is attempted. */
  retryAt: number;
  error: ServerError;
}

/** Instances of one server. */
export class Pool {
  readonly id: string;
  readonly spec: ServerSpec;
  #env: Record<string, string>;
  #hooks: PoolHooks;
  #instances = new Set<Instance>();
  #starting = new Map<string, Promise<Instance>>();
  #holders = new Map<Instance, number>();
  #waiters: (() => void)[] = [];
  /** Instances to stop when their last holder releases them (`end`), with the reason. */
  #ending = new Map<Instance, StopReason>();
  /** The pending pid check, while some instance is keyed by a pid. */
  #pidCheck?: ReturnType<typeof setTimeout>;
  /** The last start failure, cleared by a successful start. */
  failure?: StartFailure;

  constructor(spec: ServerSpec, env: Record<string, string>, hooks: PoolHooks = {}) {
    this.id = spec.poolId;
    this.spec = spec;
    this.#env = env;
    this.#hooks = hooks;
  }

  /** Live instances, oldest first. */
  get instances(): Instance[] {
    return [...this.#instances];
  }

  /** How many callers hold `instance` now. */
  holders(instance: Instance): number {
    return this.#holders.get(instance) ?? 0;
  }

  /**
   * Leases an instance for the caller's scope key, starting one when none
   * fits. Waits for a free slot up to `startTimeoutMs` (or `waitMs`, when
   * shorter: a call's own timeout) when `max` is reached (or, for an
   * exclusive server, every instance for the key is held).
   *
   * @throws {ServerError} when the server fails to start (or is cooling
   *   down after failures); {TimeoutError} naming the server, key and limit
   *   when no instance frees up in time.
   */
  async lease(ctx: CallerContext, signal?: AbortSignal, waitMs?: number): Promise<Lease> {
    const key = scopeKey(this.spec.pool.scope, ctx, this.spec.name);
    const limit = Math.min(this.spec.pool.startTimeoutMs, waitMs ?? Infinity);
    const deadline = Date.now() + limit;
    let waited = 0;
    while (true) {
      signal?.throwIfAborted();
      const instance = this.#free(key);
      if (instance) return this.#hold(instance, waited);
      // A keyed scope has one live instance per key (spec 000, "Sharing and
      // scope"): a second caller of a session waits for that session's
      // process rather than getting a second browser. Only `global` may run
      // several instances of its one key, up to `max`.
      const keyTaken = this.spec.pool.scope !== "global" && this.#hasKey(key);
      if (!keyTaken && this.#instances.size + this.#starting.size < this.spec.pool.max) {
        const started = await this.#start(key);
        if (this.spec.pool.sharing === "shared" || !this.#holders.get(started)) {
          return this.#hold(started, waited);
        }
        continue;
      }
      const pending = this.#starting.get(key);
      if (pending && this.spec.pool.sharing === "shared") {
        return this.#hold(await pending, waited);
      }
      const before = Date.now();
      const changed = await this.#waitForChange(deadline, signal);
      waited += Date.now() - before;
      if (!changed) throw this.#busyError(key, limit);
    }
  }

  /** The error for a caller that found every slot taken: which keys hold them, and what to do. */
  #busyError(key: string, waitedMs: number): TimeoutError {
    const { max, sharing } = this.spec.pool;
    const now = Date.now();
    const holders = this.instances.map((i) => {
      const held = this.holders(i);
      return `${i.key} (${
        held ? `held by ${held}` : `idle ${Math.round((now - i.lastUsedAt) / 1000)}s`
      })`;
    });
    const noSession = key.startsWith("call:") && this.spec.pool.scope !== "call"
      ? ` No session was given, so this call could not share one: pass --session <key> or set MCPX_SESSION_ID.`
      : "";
    return new TimeoutError(
      `server "${this.spec.name}": no instance for key ${key} became free within ${waitedMs} ms ` +
        `(max ${max} instance${max === 1 ? "" : "s"}, sharing ${sharing}; in use: ${
          holders.join(", ") || "none"
        }). ` +
        `Raise mcpx.max for this server, or free one with \`mcpx restart ${this.spec.namespace}\`.${noSession}`,
      waitedMs,
    );
  }

  /** Starts an instance for `key` if none is live (warm-up, listing). */
  async ensure(ctx: CallerContext): Promise<Instance> {
    const lease = await this.lease(ctx);
    lease.release();
    return lease.instance;
  }

  /**
   * Stops every instance (or those whose key is one of `keys`) and records why.
   * @returns How many were stopped.
   */
  async stop(reason: StopReason, keys?: string[]): Promise<number> {
    const doomed = this.instances.filter((i) => keys === undefined || keys.includes(i.key));
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
  end(keys: string[], reason: StopReason): { instances: Instance[]; stopped: Promise<void> } {
    const doomed = this.instances.filter((i) => !i.closed && keys.includes(i.key));
    const now: Promise<void>[] = [];
    for (const instance of doomed) {
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
      const pid = keyedPid(i.key);
      if (pid === undefined || i.closed || pidAlive(pid)) return false;
      this.#hooks.pidExited?.(i, pid);
      return true;
    });
    await Promise.all(doomed.map((i) => i.close("stop")));
    return doomed.length;
  }

  /** Keeps the pid check scheduled exactly while some live instance is keyed by a pid. */
  #watchPids(): void {
    const needed = this.instances.some((i) => keyedPid(i.key) !== undefined);
    if (!needed) {
      clearTimeout(this.#pidCheck);
      this.#pidCheck = undefined;
    } else if (this.#pidCheck === undefined) {
      this.#pidCheck = setTimeout(async () => {
        try {
          await this.stopOrphans();
        } finally {
          this.#pidCheck = undefined;
          this.#watchPids();
        }
      }, PID_CHECK_MS);
      // The check alone never keeps a process (the daemon, a test) running.
      Deno.unrefTimer(this.#pidCheck);
    }
  }

  /**
   * Stops instances unused for longer than `idleTimeoutMs` and not held.
   * @returns How many were stopped.
   */
  async reap(now = Date.now()): Promise<number> {
    const idle = this.spec.pool.idleTimeoutMs;
    if (idle <= 0) return 0;
    const idleOnes = this.instances.filter((i) =>
      !this.holders(i) && i.active === 0 && now - i.lastUsedAt >= idle
    );
    // `min` instances stay warm however idle they are; the longest idle go first.
    const removable = Math.max(0, this.instances.length - this.spec.pool.min);
    const doomed = idleOnes.sort((a, b) => a.lastUsedAt - b.lastUsedAt).slice(0, removable);
    await Promise.all(doomed.map((i) => i.close("idle")));
    return doomed.length;
  }

  /**
   * Starts the instances `min` asks for (spec 000, "Sharing and scope": `min`
   * keeps warm ones). Only a `global` pool has a key known in advance; other
   * scopes are warmed by their first caller. Failures are recorded as usual.
   */
  async warm(): Promise<void> {
    if (this.spec.pool.min < 1 || this.spec.pool.scope !== "global") return;
    try {
      await this.ensure({});
    } catch { /* the failure is kept in `failure` for ls and status */ }
  }

  #hasKey(key: string): boolean {
    if (this.#starting.has(key)) return true;
    for (const instance of this.#instances) {
      if (!instance.closed && instance.key === key) return true;
    }
    return false;
  }

  #free(key: string): Instance | undefined {
    for (const instance of this.#instances) {
      if (instance.closed || instance.key !== key || this.#ending.has(instance)) continue;
      if (this.spec.pool.sharing === "shared" || !this.holders(instance)) return instance;
    }
    return undefined;
  }

  #hold(instance: Instance, waitedMs = 0): Lease {
    this.#holders.set(instance, this.holders(instance) + 1);
    instance.lastUsedAt = Date.now();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = this.holders(instance) - 1;
      if (n > 0) this.#holders.set(instance, n);
      else this.#holders.delete(instance);
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

  #start(key: string): Promise<Instance> {
    const existing = this.#starting.get(key);
    if (existing) return existing;
    const failure = this.failure;
    if (failure && Date.now() < failure.retryAt) {
      const seconds = Math.ceil((failure.retryAt - Date.now()) / 1000);
      return Promise.reject(
        new ServerError(
          this.spec.name,
          `${failure.error.message}\n(failed to start ${failure.count} time${
            failure.count === 1 ? "" : "s"
          }; next attempt in ${seconds}s)`,
          {
            cause: failure.error,
            stderrTail: failure.error.stderrTail,
            bound: failure.error.bound,
          },
        ),
      );
    }
    const options = this.#hooks.startOptions?.(key);
    const promise = Instance.start(this.spec, key, this.#env, (i) => this.#gone(i), options)
      .then((instance) => {
        this.#instances.add(instance);
        this.failure = undefined;
        this.#hooks.started?.(instance);
        this.#watchPids();
        return instance;
      }, (error: ServerError) => {
        const count = (this.failure?.count ?? 0) + 1;
        const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (count - 1));
        this.failure = { count, retryAt: Date.now() + backoff, error };
        this.#hooks.failed?.(error, key, count);
        throw error;
      })
      .finally(() => {
        this.#starting.delete(key);
        this.#wake();
      });
    this.#starting.set(key, promise);
    return promise;
  }

  #gone(instance: Instance): void {
    this.#instances.delete(instance);
    this.#holders.delete(instance);
    this.#ending.delete(instance);
    this.#hooks.exited?.(instance);
    this.#watchPids();
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Waits until an instance is freed, started or gone, `signal` aborts (true), or the deadline (false). */
  async #waitForChange(deadline: number, signal?: AbortSignal): Promise<boolean> {
    const remaining = deadline - Date.now();
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

/** The pid a `pid:<n>` scope key names, else undefined. */
function keyedPid(key: string): number | undefined {
  if (!key.startsWith("pid:")) return undefined;
  const pid = Number(key.slice(4));
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Whether process `pid` exists. On Linux `/proc/<pid>` answers without
 * signalling anything; elsewhere `kill(pid, 0)` (POSIX: no signal is sent),
 * where `EPERM` means another user's process, which is alive.
 */
export function pidAlive(pid: number): boolean {
  if (Deno.build.os === "linux") {
    try {
      Deno.statSync(`/proc/${pid}`);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}
