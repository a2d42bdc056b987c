/**
 * The shape of a daemon route's handler: what ops/daemon_ops.ts and the
 * handler tables beside it (ops/daemon_tasks.ts, ops/daemon_subscriptions.ts)
 * each implement, and what daemon/http.ts fills a reply from.
 *
 * @module
 */

import type { Daemon } from "../engine/engine.ts";
import type { WireTrace } from "../wire/wire.ts";
import type { InputOf, OpSpec, OutputOf } from "./op.ts";

/**
 * What an answer carries besides the result or the error: filled by a
 * handler, sent by daemon/http.ts whether the operation succeeded or failed.
 */
export interface Reply {
  /** The instance that served a traced call (wire/wire.ts). */
  trace?: WireTrace;
}

/** The handler of route `S`: its validated input in, its declared output out. */
export type RouteHandler<S extends OpSpec> = (
  daemon: Daemon,
  input: InputOf<S>,
  signal: AbortSignal,
  reply: Reply,
) => Promise<OutputOf<S>>;
