/**
 * One piece of work on a leased instance, as every request to a server does
 * it: lease an instance of the pool for the caller's scope key, run the work
 * within what the caller's limit leaves, release, and log `<kind>.start` and
 * `<kind>.end` in the work's own span (`cal-…`) under its instance's. A
 * per-call instance (`call` key) stops with its work. A tool call is also
 * published on the daemon's event bus (`call.started`, `call.finished`:
 * engine/call_events.ts) beside its records. `tools/call`
 * (engine/call.ts) and the other requests (engine/server_request.ts:
 * prompts, resources) differ only in what they run and say.
 *
 * @module
 */

import { jsonByteLength } from "../core/json_stream.ts";
import type { Pool } from "./pool.ts";
import type { Lease } from "./pool_types.ts";
import type { Instance } from "./instance.ts";
import type { CallerContext, ScopeKey } from "./scope_key.ts";
import { budgetSpentError } from "./lease_errors.ts";
import { daemonSpan, elapsedMs, log, newSpan } from "./log.ts";
import { boundedText, messageOf } from "./error_text.ts";
import { enterWork } from "./work_in_flight.ts";
import { type LeaseWait, waitNotice } from "../wire/lease_waits.ts";
import type { CallEvents } from "./call_events.ts";

/** What {@link leased} runs and how its records read. */
export interface LeasedWork<T> {
  /** Names the records: `call.start`/`call.end`, `request.start`/`request.end`. */
  kind: "call" | "request";
  /** Where a call's `call.started` and `call.finished` are published (engine/call_events.ts). */
  events?: CallEvents;
  /** The records' subject, a template over `about` (`{namespace}.{tool}`). */
  what: string;
  /** The verb of the start record (`called`, `requested`). */
  verb: string;
  /** The records' fields. */
  about: Record<string, unknown>;
  /**
   * The caller's own limit over the wait and the work together (ms); the
   * work gets what the wait left. Absent: `leaseTimeout` for the wait and
   * `callTimeout` for the work.
   */
  timeoutMs?: number;
  /** What the caller's limit is called in an error (`--timeout`, `timeoutMs`). */
  timeoutSetting?: string;
  signal?: AbortSignal;
  /**
   * Told what the caller should hear while it waits or before its work runs,
   * as one line of text each: a wait for an instance others hold
   * (wire/lease_waits.ts `waitNotice`), and that a session-scoped server
   * gave this work a process of its own ({@link oneOffNote}).
   */
  onNote?(text: string): void;
  /** Told once the instance is leased and the start logged (a call's wire trace). */
  onLeased?(lease: Lease, instanceSpan: string, span: string): void;
  /** The work itself, within `ms`; `span` is its log span (`cal-…`). */
  run(instance: Instance, ms: number, span: string): Promise<T>;
  /** The error to throw for the work's `error` (a call's timeout names its setting). */
  failure?(error: unknown, instance: Instance, ms: number): unknown;
  /** What a successful answer reports as an error (a tool's `isError`), for the end record. */
  resultError?(result: T): string | undefined;
  /** A bounded one-line preview of an answer, for `call.finished` (engine/call_events.ts). */
  resultPreview?(result: T): string | undefined;
}

/**
 * Leases an instance of `pool` for `ctx`, runs `work` on it and logs both ends.
 *
 * @param spanOf The span of an instance's life (engine/instance_events.ts).
 * @returns What `work.run` answers.
 * @throws What `Pool.lease` throws; {TimeoutError} when the caller's limit
 *   was spent waiting (lease_errors.ts `budgetSpentError`); what `work.run`
 *   throws, through `work.failure`.
 */
export async function leased<T>(
  pool: Pool,
  ctx: CallerContext,
  spanOf: (instance: Instance) => string,
  work: LeasedWork<T>,
): Promise<T> {
  const { kind, what, about } = work;
  const span = newSpan("call");
  const asked = performance.now();
  const own = work.timeoutMs;
  const ownSetting = work.timeoutSetting ?? "--timeout";
  let lease: Lease;
  try {
    const onNote = work.onNote;
    lease = await pool.lease(ctx, {
      signal: work.signal,
      waitMs: own,
      waitSetting: ownSetting,
      ...(onNote ? { onWait: (wait: LeaseWait) => onNote(waitNotice(wait)) } : {}),
    });
    if (own !== undefined && own - lease.waitedMs < 1) {
      lease.release();
      throw budgetSpentError(pool.spec, lease.instance.scopeKey, lease.waitedMs, own, ownSetting);
    }
  } catch (error) {
    // No instance: the work hangs off the daemon, and ends here.
    const leaseMs = elapsedMs(asked);
    log("info", `${kind}.start`, `${what} ${work.verb}`, about, { span, parent: daemonSpan() });
    work.events?.started(span, undefined, leaseMs);
    work.events?.finished(span, undefined, {
      outcome: "failed",
      ms: leaseMs,
      error: boundedText(messageOf(error)),
    });
    log("warn", `${kind}.end`, `${what} failed after {ms} ms: {error}`, {
      ...about,
      ms: leaseMs,
      leaseMs,
      ok: false,
      error: boundedText(messageOf(error)),
      bytesOut: 0,
    }, { span });
    throw error;
  }
  const instance = spanOf(lease.instance);
  const leaseMs = elapsedMs(asked);
  const keyed = { ...about, key: lease.instance.key, instance };
  log("info", `${kind}.start`, `${what} ${work.verb} on {instance} ({key})`, {
    ...keyed,
    pid: lease.instance.pid,
    leaseMs,
  }, { span, parent: instance });
  work.events?.started(span, lease.instance, leaseMs, instance);
  work.onLeased?.(lease, instance, span);
  const note = oneOffNote(pool, lease.instance.scopeKey);
  if (note) work.onNote?.(note);
  if (lease.waitedMs > 0) {
    log("info", "lease.wait", "waited {waitedMs} ms for a free instance of {server} ({key})", {
      server: pool.spec.name,
      key: lease.instance.key,
      waitedMs: lease.waitedMs,
    }, { span });
  }
  const started = performance.now();
  let result: T | undefined;
  let failure: unknown;
  const ms = own !== undefined ? own - lease.waitedMs : pool.spec.pool.callTimeoutMs;
  // A server's log message arriving meanwhile is this work's when it is the only one (server_records.ts).
  const leave = enterWork(lease.instance, span);
  try {
    result = await work.run(lease.instance, ms, span);
    return result;
  } catch (error) {
    failure = work.failure ? work.failure(error, lease.instance, ms) : error;
    throw failure;
  } finally {
    leave();
    lease.release();
    const error = failure !== undefined
      ? boundedText(messageOf(failure))
      : result !== undefined
      ? work.resultError?.(result)
      : undefined;
    const end = {
      ...keyed,
      ms: elapsedMs(started),
      leaseMs,
      ok: error === undefined,
      ...(error === undefined ? {} : { error }),
      ...(failure === undefined && error !== undefined ? { isError: true } : {}),
      bytesOut: result === undefined ? 0 : jsonByteLength(result),
    };
    if (error === undefined) {
      log("info", `${kind}.end`, `${what} answered in {ms} ms`, end, { span });
    } else {
      log("warn", `${kind}.end`, `${what} failed after {ms} ms: {error}`, end, { span });
    }
    const preview = result === undefined ? undefined : work.resultPreview?.(result);
    work.events?.finished(span, lease.instance, {
      outcome: failure !== undefined ? "failed" : error !== undefined ? "tool-error" : "ok",
      ms: end.ms,
      ...(error !== undefined ? { error } : {}),
      ...(preview ? { preview } : {}),
    }, instance);
    if (lease.instance.scopeKey.kind === "call") await lease.instance.close("stop");
  }
}

/**
 * What a caller of a server keyed by session (`scope` `session` or
 * `parent-session`) hears when it sent no session key: its work got a
 * process of its own (engine/scope_key.ts, a `call` key), stopped after it,
 * so any state the server keeps is lost. Undefined for any other key.
 */
export function oneOffNote(pool: Pool, key: ScopeKey): string | undefined {
  const { scope } = pool.spec.pool;
  if (key.kind !== "call" || (scope !== "session" && scope !== "parent-session")) return undefined;
  const unset = scope === "session"
    ? "no session is set"
    : "neither MCPX_PARENT_SESSION_ID nor a session is set";
  return `${pool.spec.namespace} is scoped by ${scope} and ${unset}, so this call gets a ` +
    `process of its own that ends with it; pass --session <key> or set MCPX_SESSION_ID to keep ` +
    `one across calls`;
}
