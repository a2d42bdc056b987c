/**
 * Waiting for something with a deadline, never for a fixed time.
 *
 * @module
 */

/** A timer handle under both Deno's and Node's typings. */
export type TimerId = ReturnType<typeof setTimeout>;

/**
 * Resolves `true` once `promise` settles (either way), or `false` after `ms`.
 * The timer is always cleared.
 *
 * @param ms Deadline in ms.
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: TimerId | undefined;
  const timeout = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls `check` every `intervalMs` until it returns a value other than
 * `undefined`, or `ms` passes.
 *
 * @returns The value, or `undefined` when the deadline passed first.
 */
export async function pollUntil<T>(
  check: () => Promise<T | undefined> | T | undefined,
  ms: number,
  intervalMs = 20,
): Promise<T | undefined> {
  const end = Date.now() + ms;
  while (true) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() >= end) return undefined;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
