/**
 * A streaming route's items as an HTTP response of server-sent events
 * (wire/sse.ts; decision 0080): each item one message, `id:` its `id`,
 * `event:` its `kind`, `data:` the item as JSON, redacted as every answer of
 * the daemon is (decision 0017). A comment is sent after
 * {@link SSE_HEARTBEAT_MS} without a message so proxies keep an idle
 * connection open.
 *
 * The body is pulled, never pushed: an item is taken from the stream only
 * when the connection has taken the previous one (a `ReadableStream` with a
 * high-water mark of 0), so a client that stops reading holds nothing here but
 * its place in the stream, and publishing goes on without it. The stream
 * ends when the items end, when the client leaves (its connection closes,
 * which cancels the body), or when `signal` aborts.
 *
 * @module
 */

import { encodeSse, SSE_CONTENT_TYPE, sseComment } from "../wire/sse.ts";

/** How long an idle stream waits before its heartbeat comment, in ms. */
export const SSE_HEARTBEAT_MS = 15_000;

/** Options of {@link sseResponse}. */
export interface SseResponseOptions {
  /** Replaces secrets in an item before it is written (the daemon's redactor). */
  redact?: (item: unknown) => unknown;
  /** The heartbeat's period, ms; default {@link SSE_HEARTBEAT_MS}. */
  heartbeatMs?: number;
  /**
   * Told when the client has left (the body was cancelled): abort what the
   * items wait on, so the stream ends now rather than at its next item.
   */
  onCancel?: () => void;
}

/** What an item names of itself: the SSE `id:` and `event:` lines. */
interface Named {
  id?: unknown;
  kind?: unknown;
}

const encoder = new TextEncoder();

/**
 * The response that streams `items`.
 *
 * @param items Each becomes one message; `id` and `kind` (strings) name it.
 * @returns A 200 `text/event-stream` response, uncached.
 */
export function sseResponse(
  items: AsyncIterable<unknown>,
  options: SseResponseOptions = {},
): Response {
  const iterator = items[Symbol.asyncIterator]();
  const heartbeatMs = options.heartbeatMs ?? SSE_HEARTBEAT_MS;
  const redact = options.redact ?? ((item: unknown) => item);
  // The item asked for and not yet written: a heartbeat does not ask twice.
  let pending: Promise<IteratorResult<unknown>> | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      pending ??= iterator.next();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const beat = new Promise<"beat">((resolve) =>
        timer = setTimeout(resolve, heartbeatMs, "beat")
      );
      let step: IteratorResult<unknown> | "beat";
      try {
        step = await Promise.race([pending, beat]);
      } finally {
        clearTimeout(timer);
      }
      if (step === "beat") {
        controller.enqueue(encoder.encode(sseComment("heartbeat")));
        return;
      }
      pending = undefined;
      if (step.done) {
        controller.close();
        return;
      }
      const item = redact(step.value) as Named;
      controller.enqueue(encoder.encode(encodeSse({
        ...(typeof item.id === "string" ? { id: item.id } : {}),
        ...(typeof item.kind === "string" ? { event: item.kind } : {}),
        data: JSON.stringify(item),
      })));
    },
    async cancel() {
      options.onCancel?.();
      await iterator.return?.();
    },
  }, { highWaterMark: 0 });
  return new Response(body, {
    headers: {
      "content-type": `${SSE_CONTENT_TYPE}; charset=utf-8`,
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}
