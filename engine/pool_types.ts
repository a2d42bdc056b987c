/**
 * What a pool hands out and what it tells its owner (engine/pool.ts).
 *
 * @module
 */

import type { ServerError } from "../core/errors.ts";
import type { Instance, StartOptions } from "./instance.ts";
import type { ScopeKey } from "./scope_key.ts";
import type { LeaseWait } from "../wire/lease_waits.ts";

/** How a caller leases an instance. */
export interface LeaseOptions {
  signal?: AbortSignal;
  /**
   * The caller's own limit on the wait, in ms (its `--timeout`, less nothing:
   * a start is not counted); the shorter of it and `leaseTimeout` applies.
   */
  waitMs?: number;
  /** What set `waitMs`, for errors and notices; default `--timeout`. */
  waitSetting?: string;
  /**
   * Wait only for leases, not for a run's hold between its calls: mcpx's own
   * `tools/list`, which is not a caller and must not wait out a whole run.
   */
  ignoreRunHolds?: boolean;
  /**
   * Told of each wait for an instance others hold, as it begins (the same
   * wait the lease board posts: engine/lease_board.ts), so the caller hears
   * it on its own request (a note line: daemon/http.ts). Not told of a run
   * waiting behind its own other call.
   */
  onWait?: (wait: LeaseWait) => void;
}

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
  failed?(error: ServerError, key: ScopeKey, count: number): void;
  /** The process a `pid:` key names is gone; `instance` is being stopped. */
  pidExited?(instance: Instance, pid: number): void;
  /**
   * How to start an instance for `key` (its start allowance, where it is
   * shown while it starts): the owner knows whether the server was ever listed.
   */
  startOptions?(key: ScopeKey): StartOptions;
  /**
   * Whether the instance for `key` must never be stopped to make room (a
   * named session within its ttl: it exists to be resumed, not rebuilt).
   */
  keep?(key: ScopeKey): boolean;
  /** `instance` (idle, least recently used) is stopped to make room for a caller with `forKey`. */
  evicted?(instance: Instance, forKey: ScopeKey): void;
  /** The process of run `run`, which held `instance`, is gone; its hold is dropped. */
  runGone?(instance: Instance, run: string, pid: number): void;
}

/** Start failures seen by a pool, for backoff and `mcpx status`. */
export interface StartFailure {
  count: number;
  /** Epoch ms before which no start is attempted. */
  retryAt: number;
  error: ServerError;
}
