/**
 * An abortable breath between two attempts (long-polls, reconnects, polls).
 *
 * @module
 */

/**
 * Resolves after `ms`, or at once when `signal` aborts (the timer is cleared); never rejects.
 *
 * @param ms How long to wait, in ms (a negative value waits none).
 * @example
 * ```ts
 * import { pause } from "./pause.ts";
 * const stop = new AbortController();
 * stop.abort();
 * await pause(60_000, stop.signal); // at once
 * ```
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener("abort", done, { once: true });
  });
}
