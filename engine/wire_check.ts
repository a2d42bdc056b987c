/**
 * The test-only wire checker: with `MCPX_WIRE_CHECK=<file>` in the daemon's
 * environment, every JSON-RPC frame an instance sends to its server and
 * receives from it is checked against the SDK's own wire schema for the
 * protocol revision in force, and each failure is appended to `<file>` as one
 * JSON line. Nothing is ever thrown into the caller's path: a frame that fails
 * is still sent or delivered as it was. Off (and free) when the variable is
 * unset, which is normal use.
 *
 * What "the SDK's schema" is: `@modelcontextprotocol/client` 2.4.0 keeps one
 * wire codec per era (2025-11-25 and 2026-07-28) with a zod schema per method
 * for requests, results and notifications; its own dispatch validates through
 * it. They are not public surface yet (the SDK plans versioned exports), so
 * the codec is taken from `Protocol`'s `_negotiatedWireCodec`, which picks it
 * by revision exactly as a connected client does. The JSON-RPC envelope and
 * error responses are checked with the public `specTypeSchemas`.
 *
 * Strictness (decision 0039): a frame mcpx sends fails when the schema
 * rejects it, when the schema would drop a key it carries (a key the revision
 * does not define, such as another era's `resultType`), when the method is
 * not one the revision has, or (2026-07-28) when its `_meta` envelope is
 * incomplete. A frame mcpx receives fails only where the SDK would refuse it:
 * the schema rejects it; unknown keys are tolerated, as the SDK tolerates them.
 *
 * @module
 */

import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  Protocol,
  PROTOCOL_VERSION_META_KEY,
  specTypeSchemas,
} from "@modelcontextprotocol/client";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";

/** The variable that turns the checker on: the file failures are appended to. Test-only. */
export const WIRE_CHECK_ENV = "MCPX_WIRE_CHECK";

/**
 * The 2026-07-28 per-request `_meta` envelope keys (the SDK's constants). The
 * 2025-11-25 schema takes any `_meta` key, so a frame of that revision carrying
 * one is caught here: it is a key another revision defines.
 */
const MODERN_ENVELOPE_KEYS = [
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
];
/**
 * The 2026-07-28 result discriminator. A 2025-11-25 result takes any key (the
 * revision's `Result` is open), so this key of the later revision is named here.
 */
const LATER_RESULT_KEY = "resultType";
/** The revision `server/discover` is checked against before any is negotiated (the SDK's own choice). */
const DISCOVER_REVISION = "2026-07-28";
/** The revision frames are checked against before anything was offered (the SDK's default era). */
const DEFAULT_REVISION = "2025-11-25";

/** One failed frame, as appended (one JSON line) to the checker's file. */
export interface WireFailure {
  /** Server name from the configuration. */
  server: string;
  /** `sent` by mcpx or `received` from the server. */
  direction: "sent" | "received";
  /** The revision the frame was checked against. */
  revision: string;
  /** The frame's method, or for a response the method of the request it answers. */
  method: string;
  /** What is wrong: the schema's error, the keys it does not define, or the method it lacks. */
  error: string;
  /** The frame itself, cut to 2000 characters. */
  frame: string;
}

type Outcome = { ok: true; value: unknown } | {
  ok: false;
  reason: "not-in-era" | "invalid";
  message?: string;
};

/** The slice of the SDK's per-era wire codec the checker uses. */
interface WireCodec {
  era: string;
  validateRequest(method: string, raw: unknown): Outcome;
  validateResult(method: string, raw: unknown): Outcome;
  validateNotification(method: string, raw: unknown): Outcome;
  validateInputRequest(method: string, raw: unknown): Outcome;
  validateInputResponse(method: string, raw: unknown): Outcome;
  validateEnvelopeMeta(meta: Record<string, unknown>): { key: string; problem: string }[];
  decodeResult(method: string, raw: unknown): { kind: string; error?: unknown };
}

/** The SDK's wire codec for `revision` (see the module note on where it comes from). */
export function codecFor(revision: string): WireCodec {
  const pick = (Protocol.prototype as unknown as Record<string, unknown>)._negotiatedWireCodec;
  if (typeof pick !== "function") {
    throw new Error(
      "the SDK no longer has Protocol._negotiatedWireCodec; update engine/wire_check.ts",
    );
  }
  return pick.call({ _negotiatedProtocolVersion: revision }) as WireCodec;
}

/**
 * Paths of keys `raw` carries that `parsed` (the schema's output) dropped:
 * the keys the schema does not define. Arrays are compared item by item.
 */
export function droppedKeys(raw: unknown, parsed: unknown, path = ""): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    return raw.flatMap((item, i) => droppedKeys(item, parsed[i], `${path}[${i}]`));
  }
  if (!isObject(raw) || !isObject(parsed)) return [];
  return Object.keys(raw).flatMap((key) => {
    const at = path ? `${path}.${key}` : key;
    return key in parsed ? droppedKeys(raw[key], parsed[key], at) : [at];
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Answers the SDK's codec has no result schema for (2025-11-25 tasks, SEP-1686:
 * its typed result map leaves `tasks/*` out), checked instead against the
 * public spec type the SDK names for them, as engine/task_call.ts does. A
 * task-augmented request (`params.task`) is answered with a CreateTaskResult.
 * `tasks/result` carries the original request's result: mcpx makes tasks of
 * `tools/call` only.
 */
const TASK_RESULTS: Record<string, keyof typeof specTypeSchemas> = {
  "tasks/get": "GetTaskResult",
  "tasks/result": "CallToolResult",
  "tasks/cancel": "CancelTaskResult",
  "tasks/list": "ListTasksResult",
};

/**
 * Methods of an extension mcpx speaks, which no revision's core schema defines:
 * the Skills extension (SEP-2640: skills and directory reads; engine/skills.ts).
 * Their frames are checked as JSON-RPC and, in 2026-07-28, for their `_meta`
 * envelope, not for their params and results.
 */
export const EXTENSION_METHODS: ReadonlySet<string> = new Set([
  "skills/list",
  "skills/get",
  "resources/directory/read",
]);

/**
 * A frame a real server sends that the SDK refuses, and why it is let through
 * (a server's own bug, not mcpx's). Matched on server-name prefix, method and
 * a piece of the error.
 */
export const RECEIVED_EXCEPTIONS: readonly {
  method: string;
  error: string;
  reason: string;
}[] = [];

/**
 * Checks frames in one direction of one transport. Tracks the revision the
 * frames themselves settle (the `initialize` offer and answer; in 2026-07-28
 * each request's `_meta` revision), which is what the instance records as
 * `protocolRevision`, and the method of each request in flight so responses
 * are checked against their method's result schema.
 */
export class WireChecker {
  #revision: string | undefined;
  /** Whether an `initialize` was answered: the revision is then its, not a request's `_meta`. */
  #initialized = false;
  /** Requests in flight by id: their method, and whether they asked for a task. */
  readonly #sentRequests = new Map<string | number, { method: string; task: boolean }>();
  readonly #receivedRequests = new Map<string | number, { method: string; task: boolean }>();

  /**
   * @param server The server's name, for the failure lines.
   * @param report Called with each failure; the checker never throws.
   */
  constructor(readonly server: string, readonly report: (failure: WireFailure) => void) {}

  /** Checks a frame mcpx sends, strictly. */
  sent(message: JSONRPCMessage): void {
    this.#guard("sent", message, () => this.#check("sent", message));
  }

  /** Checks a frame mcpx received, as the SDK would accept it. */
  received(message: JSONRPCMessage): void {
    this.#guard("received", message, () => this.#check("received", message));
  }

  #guard(direction: "sent" | "received", message: unknown, check: () => void): void {
    try {
      check();
    } catch (error) {
      this.#fail(direction, "?", `checker: ${String(error)}`, message);
    }
  }

  #check(direction: "sent" | "received", message: JSONRPCMessage): void {
    const frame = message as Record<string, unknown>;
    const strict = direction === "sent";
    const envelope = specTypeSchemas.JSONRPCMessage["~standard"].validate(frame);
    if ("issues" in envelope && envelope.issues) {
      return this.#fail(direction, String(frame.method ?? "?"), issuesText(envelope.issues), frame);
    }
    const mine = direction === "sent" ? this.#sentRequests : this.#receivedRequests;
    const theirs = direction === "sent" ? this.#receivedRequests : this.#sentRequests;
    if (typeof frame.method === "string") {
      const method = frame.method;
      const params = frame.params as Record<string, unknown> | undefined;
      this.#learnFromRequest(method, params);
      const isRequest = "id" in frame;
      if (isRequest) {
        mine.set(frame.id as string | number, { method, task: isObject(params?.task) });
      }
      const extra = Object.keys(frame).filter((k) =>
        !["jsonrpc", "id", "method", "params"].includes(k)
      );
      if (strict && extra.length) {
        this.#fail(direction, method, `keys not defined: ${extra}`, frame);
      }
      const codec = codecFor(this.revision(method));
      const body = params === undefined
        ? { method }
        : { method, params: codec.era === "2025-11-25" ? params : withoutRetryFields(params) };
      let outcome = isRequest
        ? codec.validateRequest(method, body)
        : codec.validateNotification(method, body);
      if (isRequest && !outcome.ok && outcome.reason === "not-in-era") {
        outcome = codec.validateInputRequest(method, body);
      }
      this.#judge(direction, method, outcome, body, frame);
      const meta = isObject(params?._meta) ? params._meta : {};
      const foreign = MODERN_ENVELOPE_KEYS.filter((key) => key in meta);
      if (strict && codec.era === "2025-11-25" && foreign.length) {
        this.#fail(direction, method, `2026-07-28 envelope keys in _meta: ${foreign}`, frame);
      }
      if (strict && isRequest && codec.era === "2026-07-28" && method !== "server/discover") {
        const problems = codec.validateEnvelopeMeta(meta);
        if (problems.length) {
          this.#fail(direction, method, `_meta envelope: ${JSON.stringify(problems)}`, frame);
        }
      }
      return;
    }
    const id = frame.id as string | number;
    const asked = theirs.get(id);
    const method = asked?.method ?? "?";
    theirs.delete(id);
    if ("error" in frame) {
      const checked = specTypeSchemas.JSONRPCErrorResponse["~standard"].validate(frame);
      if ("issues" in checked && checked.issues) {
        return this.#fail(direction, method, issuesText(checked.issues), frame);
      }
      if (strict && !("value" in checked)) return;
      if (strict) this.#dropped(direction, method, frame, (checked as { value: unknown }).value);
      return;
    }
    const extra = Object.keys(frame).filter((k) => !["jsonrpc", "id", "result"].includes(k));
    if (strict && extra.length) this.#fail(direction, method, `keys not defined: ${extra}`, frame);
    if (method === "initialize" && isObject(frame.result)) {
      const agreed = frame.result.protocolVersion;
      if (typeof agreed === "string") {
        this.#revision = agreed;
        this.#initialized = true;
      }
    }
    if (method === "?") return; // a response to no request we saw: the SDK drops it too
    const codec = codecFor(this.revision(method));
    if (
      strict && codec.era === "2025-11-25" && isObject(frame.result) &&
      LATER_RESULT_KEY in frame.result
    ) {
      this.#fail(direction, method, `${LATER_RESULT_KEY} is a 2026-07-28 result key`, frame);
    }
    const taskType = asked?.task ? "CreateTaskResult" : TASK_RESULTS[method];
    let outcome = taskType && codec.era === "2025-11-25"
      ? specOutcome(taskType, frame.result)
      : codec.era !== "2025-11-25" && isObject(frame.result) &&
          frame.result[LATER_RESULT_KEY] === "input_required"
      ? inputRequiredOutcome(codec, method, frame.result)
      : codec.validateResult(method, frame.result);
    if (!outcome.ok && outcome.reason === "not-in-era") {
      outcome = codec.validateInputResponse(method, frame.result);
    }
    this.#judge(direction, method, outcome, frame.result, frame);
  }

  /** The revision frames are checked against now; for `method` when given. */
  revision(method?: string): string {
    if (method === "server/discover" && !this.#initialized) return DISCOVER_REVISION;
    return this.#revision ?? DEFAULT_REVISION;
  }

  #learnFromRequest(method: string, params: Record<string, unknown> | undefined): void {
    if (method === "initialize" && typeof params?.protocolVersion === "string") {
      this.#revision = params.protocolVersion;
    }
    const meta = params?._meta;
    if (
      !this.#initialized && isObject(meta) && typeof meta[PROTOCOL_VERSION_META_KEY] === "string"
    ) {
      this.#revision = meta[PROTOCOL_VERSION_META_KEY] as string;
    }
  }

  #judge(
    direction: "sent" | "received",
    method: string,
    outcome: Outcome,
    raw: unknown,
    frame: unknown,
  ): void {
    if (!outcome.ok && outcome.reason === "not-in-era" && EXTENSION_METHODS.has(method)) return;
    if (!outcome.ok) {
      const error = outcome.reason === "not-in-era"
        ? `method ${method} is not in revision ${this.revision(method)}`
        : outcome.message ?? "invalid";
      return this.#fail(direction, method, error, frame);
    }
    if (direction === "sent") this.#dropped(direction, method, raw, outcome.value, frame);
  }

  #dropped(
    direction: "sent" | "received",
    method: string,
    raw: unknown,
    parsed: unknown,
    frame: unknown = raw,
  ): void {
    const keys = droppedKeys(raw, parsed);
    if (keys.length) {
      this.#fail(
        direction,
        method,
        `keys revision ${this.revision(method)} does not define: ${keys.join(", ")}`,
        frame,
      );
    }
  }

  #fail(direction: "sent" | "received", method: string, error: string, frame: unknown): void {
    if (
      direction === "received" &&
      RECEIVED_EXCEPTIONS.some((e) => e.method === method && error.includes(e.error))
    ) return;
    this.report({
      server: this.server,
      direction,
      revision: this.revision(method),
      method,
      error,
      frame: JSON.stringify(frame).slice(0, 2000),
    });
  }
}

/** `raw` checked against the SDK's public spec type `name`, as a codec outcome. */
function specOutcome(name: keyof typeof specTypeSchemas, raw: unknown): Outcome {
  const checked = specTypeSchemas[name]["~standard"].validate(raw);
  if ("issues" in checked && checked.issues) {
    return { ok: false, reason: "invalid", message: issuesText(checked.issues) };
  }
  return { ok: true, value: (checked as { value: unknown }).value };
}

/**
 * A 2026-07-28 request's params without the multi-round-trip retry fields
 * (`inputResponses`, `requestState`; SEP-2322), which the SDK lifts off any
 * request before validating it (its `RETRY_PARAMS_KEYS`): its schemas for
 * `prompts/get` and `resources/read` do not name them, though a retry of
 * either carries them as a retry of `tools/call` does.
 */
function withoutRetryFields(params: Record<string, unknown>): Record<string, unknown> {
  const { inputResponses: _responses, requestState: _state, ...rest } = params;
  return rest;
}

/**
 * A 2026-07-28 `input_required` result (SEP-2322), which a relayed request
 * receives as it is (engine/input_relay.ts): judged by the codec's own
 * decoding, which refuses one the method may not answer or that is malformed.
 */
function inputRequiredOutcome(codec: WireCodec, method: string, raw: unknown): Outcome {
  const decoded = codec.decodeResult(method, raw);
  return decoded.kind === "invalid"
    ? { ok: false, reason: "invalid", message: String(decoded.error) }
    : { ok: true, value: raw };
}

function issuesText(issues: readonly { message: string; path?: readonly unknown[] }[]): string {
  return issues.map((i) => `${(i.path ?? []).map(String).join(".") || "(root)"}: ${i.message}`)
    .join("; ");
}

/**
 * Turns the checker on for `transport` when `MCPX_WIRE_CHECK` names a file:
 * wraps its `send` and whatever `onmessage` the SDK installs, on the same
 * object (so `instanceof` checks elsewhere still hold). Returns `transport`.
 *
 * @param file The file failures are appended to; `undefined` leaves the transport untouched.
 */
export function wireChecked<T extends Transport>(
  transport: T,
  server: string,
  file: string | undefined = Deno.env.get(WIRE_CHECK_ENV),
): T {
  if (!file) return transport;
  const checker = new WireChecker(server, (failure) => {
    try {
      // Failures quote the messages, arguments included: the file is this user's alone.
      Deno.writeTextFileSync(file, JSON.stringify(failure) + "\n", { append: true, mode: 0o600 });
    } catch { /* the checker never fails a call */ }
  });
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    checker.sent(message);
    return send(message, options);
  };
  let handler = transport.onmessage;
  // A handler set later may wrap the one read back (engine/notification_order.ts does), which is
  // already checked: each frame is checked once, however many wrappers it passes through.
  const checked = new WeakSet<object>();
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (next: Transport["onmessage"]) => {
      handler = next && ((message, extra) => {
        if (!checked.has(message)) {
          checked.add(message);
          checker.received(message);
        }
        return next(message, extra);
      });
    },
  });
  return transport;
}
