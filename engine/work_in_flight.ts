/**
 * Which requests are in flight on each instance, by their log span
 * (`cal-…`): what a server's log message is attributed to when it arrives
 * (engine/server_records.ts). engine/leased.ts enters every tool call and
 * request here while it runs.
 *
 * @module
 */

const spans = new WeakMap<object, Set<string>>();

/**
 * Notes that the work with log span `span` runs on `instance` until the
 * returned function is called.
 *
 * @returns Ends the work's entry; calling it again does nothing.
 */
export function enterWork(instance: object, span: string): () => void {
  let set = spans.get(instance);
  if (!set) spans.set(instance, set = new Set());
  set.add(span);
  return () => {
    set.delete(span);
  };
}

/**
 * The work in flight on `instance` now: how many, and the span of the only
 * one when exactly one runs (else undefined).
 */
export function workInFlight(instance: object): { count: number; sole?: string } {
  const set = spans.get(instance);
  const count = set?.size ?? 0;
  return count === 1 ? { count, sole: [...set!][0] } : { count };
}
