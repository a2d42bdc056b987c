/**
 * Reading the daemon's answer (`{ ok, result | error, trace?, notices?, notes? }`,
 * wire/wire.ts `WireAnswer`) the one way every client reads it: the CLI
 * (wire/daemon_request.ts) and the generated client of a script. The error
 * body is checked field by field, so what a client acts on (a code, a
 * timeout's `bound` and `setting`) is typed data, never read out of a message.
 *
 * Portable like wire/wire.ts: imports only types from it, so the generated
 * client can inline it (client/bundle.ts).
 *
 * @module
 */

import type {
  WireAnswer,
  WireErrorBody,
  WireNotice,
  WireNotification,
  WireTimeoutBound,
  WireTrace,
} from "./wire.ts";

/**
 * Error codes of a request the daemon refused before running anything
 * (daemon/http.ts): the caller is another mcpx version, the daemon is
 * stopping, or it checks a project configuration's trust otherwise. Such a
 * request may be sent again to another daemon.
 */
export const WIRE_REFUSALS: readonly string[] = [
  "version-mismatch",
  "daemon-stopping",
  "trust-mismatch",
];

const WIRE_BOUNDS: readonly WireTimeoutBound[] = [
  "leaseTimeout",
  "startTimeout",
  "firstStartTimeout",
  "callTimeout",
];

/**
 * The error body of a failed answer, with each field kept only when it has
 * its declared type (wire/wire.ts `WireErrorBody`).
 *
 * @param value The `error` member as parsed.
 * @param fallback The message when the daemon sent none.
 * @returns The body: `code` is `internal` when none was sent.
 * @example
 * ```ts
 * import { decodeErrorBody } from "./answer.ts";
 * const e = decodeErrorBody({ code: "timeout", message: "m", ms: 5, bound: "callTimeout", x: 1 });
 * if (e.bound !== "callTimeout" || e.ms !== 5 || "x" in e) throw new Error();
 * ```
 */
export function decodeErrorBody(
  value: unknown,
  fallback = "the daemon failed without a message",
): WireErrorBody {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const text = (x: unknown) => typeof x === "string" ? x : undefined;
  const count = (x: unknown) => typeof x === "number" && Number.isFinite(x) ? x : undefined;
  const body: WireErrorBody = {
    code: text(v.code) || "internal",
    message: text(v.message) ?? fallback,
  };
  if (Array.isArray(v.suggestions)) {
    body.suggestions = v.suggestions.filter((s): s is string => typeof s === "string");
  }
  if (text(v.namespace) !== undefined) body.namespace = text(v.namespace);
  if (text(v.stderrTail) !== undefined) body.stderrTail = text(v.stderrTail);
  if (count(v.ms) !== undefined) body.ms = count(v.ms);
  if (WIRE_BOUNDS.includes(v.bound as WireTimeoutBound)) body.bound = v.bound as WireTimeoutBound;
  if (text(v.setting) !== undefined) body.setting = text(v.setting);
  if (count(v.limit) !== undefined) body.limit = count(v.limit);
  return body;
}

/**
 * `value` as a {@link WireNotification} when it is one (a known `method`, an
 * object `params` whose `progress` is a number or whose `level` is a
 * string), else undefined: what a caller is told of a call's server is
 * checked before it is passed on.
 *
 * @example
 * ```ts
 * import { wireNotificationOf } from "./answer.ts";
 * const n = wireNotificationOf({ method: "notifications/progress", params: { progress: 1 } });
 * if (n?.method !== "notifications/progress") throw new Error();
 * if (wireNotificationOf({ method: "notifications/progress", params: {} })) throw new Error();
 * ```
 */
export function wireNotificationOf(value: unknown): WireNotification | undefined {
  const v = (typeof value === "object" && value !== null ? value : {}) as {
    method?: unknown;
    params?: Record<string, unknown>;
  };
  const params = typeof v.params === "object" && v.params !== null ? v.params : undefined;
  if (v.method === "notifications/progress" && typeof params?.progress === "number") {
    return v as WireNotification;
  }
  if (v.method === "notifications/message" && typeof params?.level === "string") {
    return v as WireNotification;
  }
  return undefined;
}

/** How a line the daemon streams ahead of an answer begins: a note, or a call's notification. */
export const LIVE_LINE_PREFIXES: readonly string[] = ['{"note":', '{"notification":'];

/**
 * The answer in a response body, or undefined when the body is not one (not
 * JSON, or not an object with a boolean `ok`): the caller reports that as
 * `daemon-protocol`. A failed answer always has an `error`
 * ({@link decodeErrorBody}).
 *
 * @param body The response body's text.
 * @example
 * ```ts
 * import { readAnswer } from "./answer.ts";
 * const a = readAnswer('{"ok":false,"error":{"code":"usage","message":"m"}}');
 * if (a?.ok !== false || a.error?.code !== "usage") throw new Error();
 * if (readAnswer("<html>") !== undefined) throw new Error();
 * ```
 */
export function readAnswer(body: string): WireAnswer | undefined {
  // A streamed answer (wire/live_notes.ts): its note and notification lines first, the answer last.
  const notes: string[] = [];
  const notifications: WireNotification[] = [];
  let text = body;
  if (LIVE_LINE_PREFIXES.some((prefix) => body.startsWith(prefix))) {
    const lines = body.trimEnd().split("\n");
    text = lines.pop()!;
    for (const line of lines) {
      try {
        const said = JSON.parse(line) as { note?: unknown; notification?: unknown };
        if (typeof said.note === "string") notes.push(said.note);
        const notification = wireNotificationOf(said.notification);
        if (notification) notifications.push(notification);
      } catch { /* not a line of either kind: the answer below says what is wrong */ }
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (
    typeof value !== "object" || value === null || typeof (value as WireAnswer).ok !== "boolean"
  ) {
    return undefined;
  }
  const raw = value as Record<string, unknown>;
  const answer: WireAnswer = { ok: raw.ok as boolean };
  if (answer.ok) answer.result = raw.result;
  else answer.error = decodeErrorBody(raw.error);
  if (typeof raw.trace === "object" && raw.trace !== null) answer.trace = raw.trace as WireTrace;
  if (Array.isArray(raw.notices)) {
    answer.notices = raw.notices.filter((n): n is WireNotice =>
      typeof n?.code === "string" && typeof n?.message === "string"
    );
  }
  if (typeof raw.extra === "object" && raw.extra !== null && !Array.isArray(raw.extra)) {
    answer.extra = raw.extra as Record<string, unknown>;
  }
  if (Array.isArray(raw.notes)) {
    notes.push(...raw.notes.filter((n): n is string => typeof n === "string"));
  }
  if (notes.length) answer.notes = notes;
  if (Array.isArray(raw.notifications)) {
    for (const n of raw.notifications) {
      const notification = wireNotificationOf(n);
      if (notification) notifications.push(notification);
    }
  }
  if (notifications.length) answer.notifications = notifications;
  return answer;
}
