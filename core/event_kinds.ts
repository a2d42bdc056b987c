/**
 * The kinds of event the daemon's bus carries (issue 28; spec 000 "Hearing
 * what the daemon is doing"), as one list below every layer that names them:
 * the bus publishes them (engine/event_bus.ts), a configuration's hooks
 * subscribe to them (config/hooks.ts) and a reader filters on them.
 *
 * A kind is a dotted name (`server.crashed`); its family is the part before
 * the dot (`server`), and a filter written as a family matches every kind in it.
 *
 * @module
 */

/** Every kind of event the bus carries. `gap` is a reader's, never published. */
export const EVENT_KINDS = [
  "call.started",
  "call.finished",
  "server.started",
  "server.stopped",
  "server.crashed",
  "server.restarted",
  "question.raised",
  "question.answered",
  "question.expired",
  "list.changed",
  "resource.updated",
  "session.opened",
  "session.closed",
  "log.dropped",
  "config.reloaded",
  "gap",
] as const;

/** One of {@link EVENT_KINDS}. */
export type EventKind = typeof EVENT_KINDS[number];

/**
 * The families of {@link EVENT_KINDS}: each kind's part before the dot
 * (`call`, `server`, …), in the order first met.
 *
 * @example
 * ```ts
 * import { EVENT_FAMILIES } from "./event_kinds.ts";
 * if (!EVENT_FAMILIES.includes("server") || EVENT_FAMILIES.includes("gap")) throw new Error();
 * ```
 */
export const EVENT_FAMILIES: readonly string[] = [
  ...new Set(EVENT_KINDS.filter((k) => k.includes(".")).map((k) => k.split(".")[0])),
];

/**
 * Whether `kind` is matched by `pattern`: the kind itself, or its family
 * written without a dot (`server` matches `server.crashed`).
 *
 * @example
 * ```ts
 * import { kindMatches } from "./event_kinds.ts";
 * if (!kindMatches("server", "server.crashed") || kindMatches("serv", "server.crashed")) {
 *   throw new Error();
 * }
 * ```
 */
export function kindMatches(pattern: string, kind: string): boolean {
  return pattern === kind || kind.startsWith(`${pattern}.`);
}
