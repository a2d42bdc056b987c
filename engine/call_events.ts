/**
 * A tool call as the daemon's event bus tells it (decision 0080):
 * `call.started` once it has an instance (or has failed to get one), and
 * `call.finished` with its outcome and duration, published by engine/leased.ts
 * beside the call's `call.start` and `call.end` records. Every surface's call
 * (`mcpx call`, a script's, `mcpx serve`'s, `POST /v1/call/…`) goes through
 * that one function, so none is missed and none is told twice.
 *
 * An event's `traceIds` are the call's log span (`cal-…`) and, once leased,
 * its instance's (`ins-…`): `mcpx log --chain <id>` shows either.
 *
 * @module
 */

import type { EventBus } from "./event_bus.ts";
import type { Instance } from "./instance.ts";

/** How a call ended: answered, answered with `isError`, or failed (an error, a timeout). */
export type CallOutcome = "ok" | "tool-error" | "failed";

/** What a call event names besides its instance. */
export interface CallAbout {
  namespace: string;
  tool: string;
  /** The session it was leased under, if any. */
  session?: string;
  /** The script run it belongs to, if any. */
  run?: string;
}

/** The most characters of a `call.finished` result preview. */
export const PREVIEW_CHARS = 200;

/**
 * A tool result's text blocks (else its structured content) on one line, cut
 * to {@link PREVIEW_CHARS} with `…`; undefined when it has neither.
 *
 * @example
 * ```ts
 * import { resultPreview } from "./call_events.ts";
 * const p = resultPreview({ content: [{ type: "text", text: "a\nb" }] });
 * if (p !== "a b") throw new Error(p);
 * ```
 */
export function resultPreview(result: unknown): string | undefined {
  const r = result as { content?: { type?: string; text?: string }[]; structuredContent?: unknown };
  if (!r || typeof r !== "object") return undefined;
  const texts = (Array.isArray(r.content) ? r.content : [])
    .filter((c) => c?.type === "text" && typeof c.text === "string").map((c) => c.text!);
  let text = oneLine(texts, PREVIEW_CHARS);
  if (!text && r.structuredContent !== undefined) {
    text = oneLine([JSON.stringify(r.structuredContent)], PREVIEW_CHARS);
  }
  if (!text) return undefined;
  return text.length > PREVIEW_CHARS ? text.slice(0, PREVIEW_CHARS - 1) + "…" : text;
}

/**
 * `pieces` joined by spaces with every run of white space made one space and
 * none at either end, read only until it is longer than `limit` characters:
 * a call's preview is taken on every call, and a result may be megabytes.
 */
function oneLine(pieces: readonly string[], limit: number): string {
  let out = "";
  let space = false;
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) space = true;
    for (const ch of piece) {
      if (/\s/.test(ch)) {
        space = true;
        continue;
      }
      if (space && out) out += " ";
      space = false;
      out += ch;
      if (out.length > limit) return out;
    }
  }
  return out;
}

/** The two events of one call. */
export class CallEvents {
  #bus: EventBus;
  #about: CallAbout;

  constructor(bus: EventBus, about: CallAbout) {
    this.#bus = bus;
    this.#about = about;
  }

  /**
   * Publishes `call.started`.
   *
   * @param span The call's log span.
   * @param instance The instance leased; undefined when none could be.
   * @param leaseMs How long the lease took, ms.
   * @param instanceSpan The instance's log span.
   */
  started(
    span: string,
    instance: Instance | undefined,
    leaseMs: number,
    instanceSpan?: string,
  ): void {
    this.#bus.publish("call.started", this.#event(span, instance, instanceSpan, { leaseMs }));
  }

  /**
   * Publishes `call.finished`.
   *
   * @param end `outcome`, `ms` (the call's duration after its lease), `error` (its text) and
   *   `preview` (the answer's text, at most {@link PREVIEW_CHARS} characters on one line: what
   *   a session's watcher sees, decision 0085).
   */
  finished(
    span: string,
    instance: Instance | undefined,
    end: { outcome: CallOutcome; ms: number; error?: string; preview?: string },
    instanceSpan?: string,
  ): void {
    this.#bus.publish("call.finished", this.#event(span, instance, instanceSpan, { ...end }));
  }

  #event(
    span: string,
    instance: Instance | undefined,
    instanceSpan: string | undefined,
    facts: Record<string, unknown>,
  ) {
    const { namespace, tool, session, run } = this.#about;
    return {
      server: namespace,
      ...(session ? { session } : {}),
      traceIds: instanceSpan ? [span, instanceSpan] : [span],
      data: {
        tool: `${namespace}.${tool}`,
        ...(run ? { run } : {}),
        ...(instance ? { key: instance.key, ...(instance.pid ? { pid: instance.pid } : {}) } : {}),
        ...facts,
      },
    };
  }
}
