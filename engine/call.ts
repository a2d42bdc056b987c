/**
 * One `tools/call` through a pool: leased, run and logged as every request
 * to a server is (engine/leased.ts), with what only a tool call has: its
 * wire trace, the note that its instance was rebuilt, a timeout that names
 * `callTimeout`, and `isError` results logged as failures.
 *
 * @module
 */

import { jsonByteLength } from "../core/json_stream.ts";
import { TimeoutError } from "../core/errors.ts";
import type { Pool } from "./pool.ts";
import type { CallerContext } from "./scope_key.ts";
import type { CallTarget } from "./call_target.ts";
import type { InstanceEvents } from "./instance_events.ts";
import type { Instance } from "./instance.ts";
import { callTimeoutError, timedOutText } from "./lease_errors.ts";
import { withRebuiltNote } from "./rebuilt_note.ts";
import { type CallOptions, traceCall } from "./call_trace.ts";
import { leased } from "./leased.ts";
import { CallEvents, resultPreview } from "./call_events.ts";
import { hearMessages } from "./call_messages.ts";
import { runAsTask, taskMode } from "./call_as_task.ts";
import { ProgressLog } from "./progress_log.ts";
import { log } from "./log.ts";
import { questionDesk } from "./questions.ts";
import { questionClock } from "./question_clock.ts";
import { sendingFor } from "./question_tie.ts";

/** The SDK's timeout when mcpx keeps the clock itself: the longest `setTimeout` takes, ms. */
const UNBOUNDED_MS = 2_147_483_647;

/**
 * Calls `target.tool` (its real name) once on an instance of `pool`.
 *
 * `options.timeoutMs`, the caller's own limit (`--timeout`), covers the wait
 * for an instance and the call together: the call gets what the wait left
 * (issue 8, "Three bounds on a caller's wait").
 *
 * @param events Where the instance's span and rebuilt note are kept.
 * @returns The MCP `CallToolResult`, with a rebuilt note in `_meta` when the
 *   instance replaces its session's earlier one (engine/rebuilt_note.ts).
 * A tool whose `taskSupport` is `required`, or a call with `asTask`, runs as
 * a task (engine/call_as_task.ts).
 *
 * @throws {UsageError} for `asTask` on a tool that cannot run as a task;
 *   {TimeoutError} with `bound` and `setting` saying which limit
 *   passed; {ServerError} (a {SessionLostError} when a remote forgot the
 *   session, which the caller may retry); what `Pool.lease` throws.
 */
export function callOnce(
  pool: Pool,
  target: Pick<CallTarget, "namespace" | "tool" | "taskSupport" | "inputSchema">,
  args: Record<string, unknown>,
  ctx: CallerContext,
  options: CallOptions,
  events: InstanceEvents,
): Promise<unknown> {
  const { namespace, tool } = target;
  const about = {
    namespace,
    tool,
    server: pool.spec.name,
    ...(ctx.session ? { session: ctx.session } : {}),
    ...(ctx.run ? { run: ctx.run } : {}),
    bytesIn: jsonByteLength(args),
  };
  const own = options.timeoutMs;
  // A script passes its call's `timeoutMs` option; `mcpx call` names its `--timeout`.
  const ownSetting = options.timeoutSetting ?? (ctx.run ? "timeoutMs" : "--timeout");
  const trace = options.trace;
  // A task-only tool runs as a task and is waited for; `--task` answers the task's handle.
  const mode = taskMode(`${namespace}.${tool}`, target.taskSupport, options.asTask);
  // Every call carries a progress token; what comes back is logged at a bounded rate.
  const callWithProgress = async (instance: Instance, ms: number, span: string) => {
    const progress = new ProgressLog((note) =>
      log(
        "info",
        "call.progress",
        `{namespace}.{tool} progress {progress}${note.total !== undefined ? "/{total}" : ""}${
          note.message ? ": {message}" : ""
        }`,
        { namespace, tool, server: pool.spec.name, ...note },
        { span },
      )
    );
    const pending = options.pending;
    // A call that may ask a question keeps its own clock, which stops while one is open.
    const clock = pending ? new AbortController() : undefined;
    const timer = pending ? questionClock(pending, ms, () => clock!.abort()) : undefined;
    const off = pending ? questionDesk.during(instance.id, pending) : undefined;
    const reset = pool.spec.pool.resetTimeoutOnProgress && own === undefined;
    const unhear = options.onmessage ? hearMessages(span, options.onmessage) : undefined;
    // What the server asks on this call's own response stream is this call's (decision 0075).
    const send = <T>(work: () => Promise<T>) => pending ? sendingFor(pending, work) : work();
    try {
      return await send(() =>
        instance.callTool(tool, args, {
          timeoutMs: clock ? UNBOUNDED_MS : ms,
          signal: clock && options.signal
            ? AbortSignal.any([options.signal, clock.signal])
            : clock?.signal ?? options.signal,
          onprogress: (p) => {
            progress.note(p);
            if (reset) timer?.reset();
            options.onprogress?.(p);
          },
          // The caller's own limit stays a hard bound however long progress goes on.
          ...(pool.spec.pool.resetTimeoutOnProgress && !clock
            ? {
              resetTimeoutOnProgress: true,
              ...(own !== undefined ? { maxTotalTimeoutMs: ms } : {}),
            }
            : {}),
          ...(target.inputSchema ? { inputSchema: target.inputSchema } : {}),
          ...(options.relay ? { relay: options.relay } : {}),
        })
      );
    } catch (error) {
      if (clock?.signal.aborted && !options.signal?.aborted) {
        throw new TimeoutError(
          timedOutText(`${namespace}.${tool}`, ms, "callTimeout"),
          ms,
          { cause: error },
        );
      }
      throw error;
    } finally {
      unhear?.();
      off?.();
      timer?.stop();
      progress.finish();
    }
  };
  return leased(pool, ctx, (i) => events.span(i), {
    kind: "call",
    events: new CallEvents(events.bus, {
      namespace,
      tool,
      ...(ctx.session ? { session: ctx.session } : {}),
      ...(ctx.run ? { run: ctx.run } : {}),
    }),
    what: "{namespace}.{tool}",
    verb: "called",
    about,
    timeoutMs: own,
    timeoutSetting: ownSetting,
    signal: options.signal,
    ...(options.onNote ? { onNote: options.onNote } : {}),
    ...(trace
      ? {
        onLeased: (lease, instance, span) => traceCall(trace, { ...about, instance, lease, span }),
      }
      : {}),
    run: async (instance, ms, span) => {
      const result = mode === "call"
        ? await callWithProgress(instance, ms, span)
        : await runAsTask(instance, tool, args, ctx, mode, ms, options);
      const rebuilt = events.takeRebuilt(instance);
      return rebuilt ? withRebuiltNote(result, instance, rebuilt) : result;
    },
    failure: (error, instance, ms) =>
      error instanceof TimeoutError
        ? callTimeoutError(
          pool.spec,
          instance.scopeKey,
          tool,
          ms,
          own !== undefined ? ownSetting : undefined,
          error,
        )
        : error,
    resultError: toolErrorText,
    resultPreview,
  });
}

/** The text of a tool result that reports `isError` (first 300 characters), else undefined. */
function toolErrorText(result: unknown): string | undefined {
  const r = result as { isError?: boolean; content?: { type?: string; text?: string }[] };
  if (!r || r.isError !== true) return undefined;
  const text = (r.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join(" ");
  return (text.split("\n")[0] || "the tool reported an error").slice(0, 300);
}
