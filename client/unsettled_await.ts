/**
 * A script whose top-level await can never settle (`await new Promise(() =>
 * {})`, an event that never comes, an `export default` that never returns)
 * ends with one error in mcpx's words, under every runtime (issue 9;
 * decision 0024). Each runtime meets it its own way once nothing is left
 * that could settle the promise (no timer, no I/O, no tool call):
 *
 * - node ends with code 13 and a warning naming the launcher's line, but
 *   first emits `beforeExit`, where the client reports it instead;
 * - bun emits `beforeExit` too, but only when its main module is not itself
 *   waiting, so under bun the runtime starts on a file that imports the
 *   launcher (runner/run_script.ts); a waiting main module makes bun spin
 *   forever at full speed;
 * - deno has no hook: it prints its own report ("Top-level await promise
 *   never resolved", coloured, with the launcher's frame) and exits 1, and
 *   mcpx puts this error in its place (runner/runtime_report.ts).
 *
 * The launcher marks what it awaits (the script's import, its entry) with
 * {@link awaitingEntry}; the message and record are shared by the client and
 * the runner. Inlined into the generated client (client/client_file.ts
 * `RUNTIME_INPUTS`): no imports, no name another inlined module declares.
 *
 * @module
 */

/** The `name` of the error recorded for it. */
export const UNSETTLED_NAME = "UnsettledAwait";

/** What the run says, as `error: <this>`. */
export const UNSETTLED_MESSAGE = "the script's top-level await never settled: it waits on a " +
  "promise that nothing left in the script can settle (no timer, I/O or tool call is " +
  "pending), so it would wait forever; look for an await on a promise that is never resolved " +
  "(such as `await new Promise(() => {})`) or on an event that never comes";

/** The attributes of the `run.error` record that reports it (frames: none are the script's). */
export function unsettledErrorAttrs(): Record<string, unknown> {
  return { error: { name: UNSETTLED_NAME, message: UNSETTLED_MESSAGE, frames: [] } };
}

/** How many of the launcher's awaits have not settled yet. */
let awaitsPending = 0;
/** Whether the runtime's hook is set (once per run). */
let unsettledHooked = false;

/**
 * Marks the launcher as waiting on `promise` until it settles.
 *
 * @param first Called once, before the first promise is marked (the runtime's hook is set then).
 * @returns `promise` itself, for the launcher to await.
 */
export function awaitingEntry<T>(promise: Promise<T>, first: () => void): Promise<T> {
  if (!unsettledHooked) {
    unsettledHooked = true;
    first();
  }
  awaitsPending++;
  const settled = () => void awaitsPending--;
  promise.then(settled, settled);
  return promise;
}

/** True while something the launcher awaits has not settled. */
export function entryUnsettled(): boolean {
  return awaitsPending > 0;
}
