/**
 * How one HTTP/1.1 request head says where its request ends, for the
 * guarded listener (wire/guarded_listen.ts), which relays requests one after
 * another on a kept connection and must time each next head: a body of
 * `content-length` bytes, or none (RFC 9112 §6.3: a request with neither
 * `content-length` nor `transfer-encoding` has no body).
 *
 * A request the relay does not frame itself is the connection's last: one
 * with `transfer-encoding` (chunked bodies are left to the inner server to
 * read), a `content-length` that is not one decimal number, an HTTP/1.0 one,
 * or one that says `connection: close`.
 *
 * @module
 */

/** Where a request ends, and whether another may follow it on the connection. */
export interface RequestFraming {
  /** False: the connection carries nothing after this request. */
  keep: boolean;
  /** The body's length in bytes (0 when it has none, or when `keep` is false). */
  bodyBytes: number;
}

/**
 * The framing of `head`, the request line and headers up to and without the
 * blank line that ends them.
 *
 * @example
 * ```ts
 * import { requestFraming } from "./request_framing.ts";
 * const f = requestFraming("POST /mcp HTTP/1.1\r\nhost: a\r\ncontent-length: 12");
 * if (!f.keep || f.bodyBytes !== 12) throw new Error();
 * ```
 */
export function requestFraming(head: string): RequestFraming {
  const last = { keep: false, bodyBytes: 0 };
  const lines = head.split("\r\n");
  if (!/ HTTP\/1\.1$/.test(lines[0])) return last;
  let length: number | undefined;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon < 0) return last;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "transfer-encoding") return last;
    if (name === "connection" && /(^|,)\s*close\s*(,|$)/i.test(value)) return last;
    if (name === "content-length") {
      if (!/^\d{1,15}$/.test(value)) return last;
      if (length !== undefined && length !== Number(value)) return last;
      length = Number(value);
    }
  }
  return { keep: true, bodyBytes: length ?? 0 };
}
