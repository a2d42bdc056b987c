/**
 * The shape of a daemon route's handler: what ops/daemon_ops.ts and the
 * handler tables beside it (ops/daemon_tasks.ts, ops/daemon_subscriptions.ts)
 * each implement, and what daemon/http.ts fills a reply from.
 *
 * @module
 */

import type { Daemon } from "../engine/engine.ts";
import type { WireNotification, WireTrace } from "../wire/wire.ts";
import type { InputOf, OpSpec, OutputOf } from "./op.ts";

/**
 * What an answer carries besides the result or the error: filled by a
 * handler, sent by daemon/http.ts whether the operation succeeded or failed.
 */
export interface Reply {
  /** The instance that served a traced call (wire/wire.ts). */
  trace?: WireTrace;
  /**
   * Says one line to the caller about its request before the answer (a
   * wait for an instance others hold): at once, as a note line, to a caller
   * that sent `live: true`, else with the answer (`notes`). daemon/http.ts
   * sets it for every request.
   */
  note?: (text: string) => void;
  /**
   * Says one notification of a call's server (a progress update or a log
   * message) to the caller, before the answer and in the order said: at
   * once, as a line, to a caller that sent `live: true`, else with the
   * answer (`notifications`). daemon/http.ts sets it for every request; the
   * call routes say them for a call that carries a `notify` token
   * (ops/call_notify.ts, decision 0078).
   */
  notification?: (notification: WireNotification) => void;
  /**
   * What a person's rendering of the answer adds and its document leaves
   * out (a search's whole descriptions): sent beside the result as `extra`
   * (wire/wire.ts `WireAnswer`), never inside it, so `--json` and a tool
   * result show the op's output alone.
   */
  extra?: Record<string, unknown>;
}

/** The handler of route `S`: its validated input in, its declared output out. */
export type RouteHandler<S extends OpSpec> = (
  daemon: Daemon,
  input: InputOf<S>,
  signal: AbortSignal,
  reply: Reply,
) => Promise<OutputOf<S>>;

/** What a streaming route's handler reads of its request besides the query string. */
export interface StreamHeaders {
  /** `Last-Event-ID` (WHATWG HTML, "Server-sent events"): where a reconnecting client resumes. */
  lastEventId?: string;
}

/**
 * The handler of a streaming route (ops/op.ts `stream`): its validated input
 * in, its items out, each fitting the route's declared output, until the
 * stream ends or `signal` aborts (the client left). A refusal of the input
 * is thrown before the first item.
 */
export type StreamHandler<S extends OpSpec> = (
  daemon: Daemon,
  input: InputOf<S>,
  signal: AbortSignal,
  headers: StreamHeaders,
) => AsyncIterable<OutputOf<S>>;
