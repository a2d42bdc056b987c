/**
 * The options of a tool call through the daemon, and the trace of one
 * (spec 000, "Lifecycle and operations": `MCPX_TRACE=1` logs one line per
 * tool call naming the instance that served it). The switch is the
 * caller's (setting `logging.trace`), sent with each call, because the
 * daemon reads its own environment only once.
 *
 * @module
 */

import type { InputRelay } from "./input_relay.ts";
import type { WireTrace } from "../wire/wire.ts";
import type { Progress } from "./progress_log.ts";
import type { ServerMessage } from "./server_notifications.ts";
import type { Instance } from "./instance.ts";
import type { PendingCall } from "./questions.ts";
import { log } from "./log.ts";
import type { TaskCallOptions } from "./call_as_task.ts";

/** Options of {@linkcode Daemon.call}; the task ones are engine/call_as_task.ts's. */
export interface CallOptions extends TaskCallOptions {
  /**
   * The caller's own limit on the wait for an instance and the call
   * together, in ms (a start is not counted); replaces `callTimeout`.
   */
  timeoutMs?: number;
  /** What set `timeoutMs`, as errors name it (default `--timeout`). */
  timeoutSetting?: string;
  signal?: AbortSignal;
  /** Set for a traced call (the caller's `MCPX_TRACE`): told the instance that serves it. */
  trace?: (trace: WireTrace) => void;
  /**
   * Told each line the caller should hear before the result: a wait for an
   * instance others hold, a process of its own (engine/leased.ts `onNote`).
   */
  onNote?: (text: string) => void;
  /** Told each progress notification the server sends for the call (engine/progress_log.ts). */
  onprogress?: (progress: Progress) => void;
  /**
   * Told each log message (`notifications/message`) attributed to the call:
   * one its server sends while the call is the only work in flight on its
   * instance (engine/call_messages.ts; decision 0048).
   */
  onmessage?: (message: ServerMessage) => void;
  /**
   * The call as the daemon keeps it for its questions (engine/questions.ts):
   * told of each question the server asks while it runs, whose open time
   * does not count against its limit.
   */
  pending?: PendingCall;
  /** Sent for a client mcpx serves: an `input_required` result is answered as is (engine/input_relay.ts). */
  relay?: InputRelay;
}

/**
 * Logs the one `call.trace` line of a traced call (spec 000, "Lifecycle and
 * operations": `MCPX_TRACE=1`) and hands the same facts to the caller.
 */
export function traceCall(
  send: (trace: WireTrace) => void,
  call: {
    namespace: string;
    tool: string;
    server: string;
    instance: string;
    span: string;
    lease: { instance: Instance };
  },
): void {
  const trace: WireTrace = {
    namespace: call.namespace,
    tool: call.tool,
    server: call.server,
    ...(call.lease.instance.pid ? { pid: call.lease.instance.pid } : {}),
    key: call.lease.instance.key,
    instance: call.instance,
    call: call.span,
  };
  log("info", "call.trace", "{namespace}.{tool} served by {server} pid {pid} ({key}, {instance})", {
    ...trace,
    pid: trace.pid ?? "remote",
  }, { span: call.span });
  send(trace);
}
