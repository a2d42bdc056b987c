/**
 * The daemon's JSON answers: a small body as `Response.json` makes it, a
 * large one (a tool result of many MB) streamed in chunks of about 64 KiB
 * with its exact `content-length`, so answering costs the daemon a chunk of
 * memory rather than the whole JSON text and then its bytes (two more copies
 * of the result). core/json_stream.ts serialises it.
 *
 * @module
 */

import { jsonByteLength, jsonPieces } from "../core/json_stream.ts";

/** Bodies of at least this many bytes are streamed: 1 MiB. */
export const STREAM_FROM_BYTES = 1 << 20;
/** Characters gathered into one chunk of a streamed body before it is encoded: 64 Ki. */
const CHUNK_CHARS = 1 << 16;

/**
 * A JSON response for `body`, streamed when it is large.
 *
 * @param body Any value `JSON.stringify` accepts.
 * @param init Status and headers, as for `Response.json`.
 * @returns A response whose bytes are `JSON.stringify(body)` in UTF-8.
 * @throws {TypeError} When `body` cannot be serialised (a BigInt, a cycle), as
 *   `Response.json` does.
 */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  let bytes: number;
  try {
    bytes = jsonByteLength(body);
  } catch {
    return Response.json(body, init); // throws its own error for what cannot be serialised
  }
  if (bytes < STREAM_FROM_BYTES) return Response.json(body, init);
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  headers.set("content-length", String(bytes));
  return new Response(jsonByteStream(body), { ...init, headers });
}

/**
 * `JSON.stringify(body)` as UTF-8 chunks of about {@link CHUNK_CHARS} characters,
 * made as the reader asks for them.
 */
export function jsonByteStream(body: unknown): ReadableStream<Uint8Array> {
  const pieces = jsonPieces(body);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const batch: string[] = [];
      let chars = 0;
      while (chars < CHUNK_CHARS) {
        const next = pieces.next();
        if (next.done) break;
        batch.push(next.value);
        chars += next.value.length;
      }
      if (batch.length > 0) controller.enqueue(encoder.encode(batch.join("")));
      if (chars < CHUNK_CHARS) controller.close();
    },
    cancel() {
      pieces.return(undefined);
    },
  });
}
