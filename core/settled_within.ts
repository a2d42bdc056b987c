/**
 * A bounded wait for a promise that goes on after the wait: what the daemon's
 * `list` operation uses to answer a discovery request while a server's first
 * listing continues (engine/listings.ts, decision 0010).
 *
 * @module
 */

/**
 * What `promise` resolves to within `ms`; undefined when it has not settled
 * by then (it goes on, and its outcome is not observed here). A rejection
 * within `ms` passes through.
 *
 * @param ms The longest wait, in ms; 0 or less: one turn of the event loop.
 * @example
 * ```ts
 * import { settledWithin } from "./settled_within.ts";
 * if (await settledWithin(Promise.resolve(1), 10) !== 1) throw new Error();
 * if (await settledWithin(new Promise(() => {}), 0) !== undefined) throw new Error();
 * ```
 */
export async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
