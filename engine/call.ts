/**
 * One `tools/call` through a pool: lease an instance for the caller's scope
 * key, call the tool within what the caller's limit leaves, release, and log
 * `call.start`/`call.end` in the call's own span (`cal-…`) under its
 * instance's. A per-call instance (`call` key) stops with its call.
 *
 * @module
 */

import { jsonByteLength } from "../core/json_stream.ts";
import { TimeoutError } from "../core/errors.ts";
import type { Pool } from "./pool.ts";
import type { CallerContext } from "./scope_key.ts";
import type { CallTarget } from "./call_target.ts";
import type { InstanceEvents } from "./instance_events.ts";
import { budgetSpentError, callTimeoutError } from "./lease_errors.ts";
import { withRebuiltNote } from "./rebuilt_note.ts";
import { type CallOptions, traceCall } from "./call_trace.ts";
import { daemonSpan, elapsedMs, log, newSpan } from "./log.ts";
import { messageOf } from "./error_text.ts";

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
 * @throws {TimeoutError} with `bound` and `setting` saying which limit
 *   passed; {ServerError} (a {SessionLostError} when a remote forgot the
 *   session, which the caller may retry); what `Pool.lease` throws.
 */
export async function callOnce(
  pool: Pool,
  target: Pick<CallTarget, "namespace" | "tool">,
  args: Record<string, unknown>,
  ctx: CallerContext,
  options: CallOptions,
  events: InstanceEvents,
): Promise<unknown> {
  const { namespace, tool } = target;
  const span = newSpan("call");
  const about = {
    namespace,
    tool,
    server: pool.spec.name,
    ...(ctx.session ? { session: ctx.session } : {}),
    ...(ctx.run ? { run: ctx.run } : {}),
    bytesIn: jsonByteLength(args),
  };
  const asked = performance.now();
  const own = options.timeoutMs;
  // A script passes its call's `timeoutMs` option; `mcpx call` names its `--timeout`.
  const ownSetting = options.timeoutSetting ?? (ctx.run ? "timeoutMs" : "--timeout");
  let lease;
  try {
    lease = await pool.lease(ctx, {
      signal: options.signal,
      waitMs: own,
      waitSetting: ownSetting,
    });
    if (own !== undefined && own - lease.waitedMs < 1) {
      lease.release();
      throw budgetSpentError(pool.spec, lease.instance.scopeKey, lease.waitedMs, own, ownSetting);
    }
  } catch (error) {
    // No instance: the call hangs off the daemon, and ends here.
    const leaseMs = elapsedMs(asked);
    log("info", "call.start", "{namespace}.{tool} called", about, { span, parent: daemonSpan() });
    log("warn", "call.end", "{namespace}.{tool} failed after {ms} ms: {error}", {
      ...about,
      ms: leaseMs,
      leaseMs,
      ok: false,
      error: messageOf(error).split("\n")[0],
      bytesOut: 0,
    }, { span });
    throw error;
  }
  const instance = events.span(lease.instance);
  const leaseMs = elapsedMs(asked);
  log("info", "call.start", "{namespace}.{tool} called on {instance} ({key})", {
    ...about,
    key: lease.instance.key,
    instance,
    pid: lease.instance.pid,
    leaseMs,
  }, { span, parent: instance });
  if (options.trace) traceCall(options.trace, { ...about, instance, lease, span });
  if (lease.waitedMs > 0) {
    log("info", "lease.wait", "waited {waitedMs} ms for a free instance of {server} ({key})", {
      server: pool.spec.name,
      key: lease.instance.key,
      waitedMs: lease.waitedMs,
    }, { span });
  }
  const started = performance.now();
  let result: unknown;
  let failure: unknown;
  // The caller's limit covers the wait and the call: the call gets what is left.
  const callMs = own !== undefined ? own - lease.waitedMs : pool.spec.pool.callTimeoutMs;
  try {
    result = await lease.instance.callTool(tool, args, {
      timeoutMs: callMs,
      signal: options.signal,
    });
    const rebuilt = events.takeRebuilt(lease.instance);
    if (rebuilt) result = withRebuiltNote(result, lease.instance, rebuilt);
    return result;
  } catch (error) {
    failure = error instanceof TimeoutError
      ? callTimeoutError(
        pool.spec,
        lease.instance.scopeKey,
        tool,
        callMs,
        own !== undefined ? ownSetting : undefined,
        error,
      )
      : error;
    throw failure;
  } finally {
    lease.release();
    const ms = elapsedMs(started);
    const error = failure !== undefined ? messageOf(failure).split("\n")[0] : toolErrorText(result);
    const end = {
      ...about,
      key: lease.instance.key,
      instance,
      ms,
      leaseMs,
      ok: error === undefined,
      ...(error === undefined ? {} : { error }),
      ...(failure === undefined && error !== undefined ? { isError: true } : {}),
      bytesOut: result === undefined ? 0 : jsonByteLength(result),
    };
    if (error === undefined) {
      log("info", "call.end", "{namespace}.{tool} answered in {ms} ms", end, { span });
    } else {
      log("warn", "call.end", "{namespace}.{tool} failed after {ms} ms: {error}", end, { span });
    }
    if (lease.instance.scopeKey.kind === "call") await lease.instance.close("stop");
  }
}

/** The text of a tool result that reports `isError` (first 300 characters), else undefined. */
function toolErrorText(result: unknown): string | undefined {
  const r = result as { isError?: boolean; content?: { type?: string; text?: string }[] };
  if (!r || r.isError !== true) return undefined;
  const text = (r.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join(" ");
  return (text.split("\n")[0] || "the tool reported an error").slice(0, 300);
}
