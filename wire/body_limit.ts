/**
 * The most bytes an mcpx HTTP listener reads of one request body, and the
 * one way it reads one: the daemon's `/v1` (unix socket and TCP) and
 * `mcpx serve --http` (in front of the SDK, whose own limits stay as a
 * second line). Without it a 100 MB body was read whole and parsed, and the
 * daemon peaked at 953 MB (issue 24, "Bodies, sessions, headers"; decision 0058).
 *
 * The limit is `input.maxBytes` (what a caller may pass in, config/input_limit.ts)
 * plus {@link BODY_ENVELOPE_BYTES} for what travels around it (the caller's
 * fields, JSON-RPC's envelope). A body is refused (413) before it is read
 * when its `Content-Length` says it is too large, and as soon as it passes
 * the limit while it is read when it has none (chunked).
 *
 * @module
 */

import { formatBytes, readAllBounded } from "../core/bounded_read.ts";
import { McpxError } from "../core/errors.ts";

/** Room for what travels around an input in a request body: 1 MiB. */
export const BODY_ENVELOPE_BYTES = 1024 * 1024;

/**
 * The most bytes of one request body, for `input.maxBytes` as resolved.
 *
 * @param inputMaxBytes `input.maxBytes` (bytes).
 * @returns `inputMaxBytes` + {@link BODY_ENVELOPE_BYTES}.
 */
export function bodyLimit(inputMaxBytes: number): number {
  return inputMaxBytes + BODY_ENVELOPE_BYTES;
}

/**
 * The refusal of a body past `maxBytes`: code `body-too-large`, naming the
 * size seen, the limit and the setting that raises it.
 *
 * @param seen The bytes the `Content-Length` declared, or read before mcpx stopped.
 * @param declared Whether `seen` is the declared length (nothing was read).
 */
export function bodyTooLarge(seen: number, maxBytes: number, declared: boolean): McpxError {
  return new McpxError(
    "body-too-large",
    `the request body ${declared ? "declares" : "passed"} ${seen} bytes` +
      `${declared ? "" : " before mcpx stopped reading"}, over the ${formatBytes(maxBytes)} a ` +
      `request may carry (input.maxBytes plus ${formatBytes(BODY_ENVELOPE_BYTES)} of envelope); ` +
      `nothing was run: send a smaller input, or raise input.maxBytes (MCPX_INPUT_MAX_BYTES) ` +
      `where the listener runs`,
  );
}

/**
 * The refusal of a request whose `Content-Length` is over `maxBytes`, before
 * a byte of the body is read; undefined when it has none or it fits.
 */
export function declaredBodyRefusal(headers: Headers, maxBytes: number): McpxError | undefined {
  const length = headers.get("content-length");
  if (length === null || !/^\d+$/.test(length.trim())) return undefined;
  const n = Number(length);
  return n > maxBytes ? bodyTooLarge(n, maxBytes, true) : undefined;
}

/**
 * Reads a request's body whole, at most `maxBytes` of it.
 *
 * @returns The body's bytes (empty when it has none).
 * @throws {McpxError} `body-too-large` when the declared length is over the
 *   limit (nothing read) or as soon as the bytes read pass it.
 */
export async function readBodyBounded(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = declaredBodyRefusal(request.headers, maxBytes);
  if (declared) throw declared;
  if (!request.body) return new Uint8Array(0);
  return await readAllBounded(request.body, maxBytes, (n) => bodyTooLarge(n, maxBytes, false));
}
