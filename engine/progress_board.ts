/**
 * The latest progress of each call whose caller asked to hear it: a call
 * that carries a `notify` token (wire/caller.ts) posts each progress
 * notification its server sends here, and the caller long-polls the
 * daemon's `progress` operation with the same token to show a progress
 * line (cli/call/call_progress.ts). Only the latest is kept per token: a line
 * shows where a call is, not its history (the log has that:
 * engine/progress_log.ts). Decision 0034.
 *
 * @module
 */

import type { Progress } from "./progress_log.ts";

/** One call's latest progress, as `progress` answers it. */
export interface ProgressUpdate extends Progress {
  /** Increases with each update of the token; poll with the last one seen. */
  seq: number;
}

interface Waiter {
  resolve(update: ProgressUpdate | undefined): void;
}

/** The longest a poll is held, in ms. */
export const PROGRESS_HOLD_MAX_MS = 60_000;

/** Each token's latest progress, and the polls waiting for a newer one. */
export class ProgressBoard {
  #latest = new Map<string, ProgressUpdate>();
  #waiters = new Map<string, Set<Waiter>>();
  #seq = 0;

  /** The call with `token` reported `progress`: kept as its latest, and told to its pollers. */
  post(token: string, progress: Progress): void {
    const update: ProgressUpdate = { ...progress, seq: ++this.#seq };
    this.#latest.set(token, update);
    for (const waiter of this.#waiters.get(token) ?? []) waiter.resolve(update);
    this.#waiters.delete(token);
  }

  /** The call with `token` ended: its progress is forgotten and its pollers answered with none. */
  end(token: string): void {
    this.#latest.delete(token);
    for (const waiter of this.#waiters.get(token) ?? []) waiter.resolve(undefined);
    this.#waiters.delete(token);
  }

  /**
   * The latest progress of `token` newer than `after`: at once when there is
   * one, else when one is posted, or undefined once `holdMs` (at most
   * {@link PROGRESS_HOLD_MAX_MS}) passes, the call ends or `signal` aborts.
   */
  poll(
    token: string,
    after: number,
    holdMs: number,
    signal?: AbortSignal,
  ): Promise<ProgressUpdate | undefined> {
    const latest = this.#latest.get(token);
    if (latest && latest.seq > after) return Promise.resolve(latest);
    if (signal?.aborted || holdMs <= 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      let set = this.#waiters.get(token);
      if (!set) this.#waiters.set(token, set = new Set());
      const waiters = set;
      const done = (update: ProgressUpdate | undefined) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
        waiters.delete(waiter);
        if (waiters.size === 0 && this.#waiters.get(token) === waiters) this.#waiters.delete(token);
        resolve(update);
      };
      const aborted = () => done(undefined);
      const waiter: Waiter = { resolve: done };
      const timer = setTimeout(aborted, Math.min(holdMs, PROGRESS_HOLD_MAX_MS));
      signal?.addEventListener("abort", aborted, { once: true });
      waiters.add(waiter);
    });
  }
}

/** The daemon's board (one per daemon process, as engine/notices.ts's notices are). */
export const progressBoard: ProgressBoard = new ProgressBoard();
