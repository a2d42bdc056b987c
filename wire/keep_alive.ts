/**
 * Connections to a daemon kept open between requests (HTTP/1.1 persistent
 * connections, RFC 9112 §9.3), so a process that sends many requests (`mcpx
 * serve`, the front process, a script's generated client) connects once
 * rather than once a request. wire/wire.ts `exchangeRequest` uses them on
 * Deno; `node:net` callers connect per request as before.
 *
 * - {@link ResponseFrame} tells when a response is whole without waiting for
 *   the connection to end: by `content-length`, or a chunked body's last
 *   chunk (RFC 9112 §6.3, §7.1). A response that says `connection: close`, or
 *   whose end only the connection's end marks, is not kept.
 * - {@link parkIdle} keeps an answered connection, unref'd (it never holds a
 *   process open) and watched: a read stays pending on it, so a connection
 *   the daemon closed (it stopped, or restarted) is dropped when that read
 *   ends, not found dead by the next request. {@link takeIdle} hands it out
 *   with that pending read, whose bytes are the next response's first.
 *
 * What a failure on a kept connection means for sending again is the
 * caller's (wire/wire.ts): nothing written yet, a fresh connection may be
 * tried; written, it may have run (decision 0007).
 *
 * @module
 */

/** Idle connections kept per endpoint, at most: more are closed. */
export const MAX_IDLE_PER_ENDPOINT = 8;

/** One kept connection: its pending read into `buffer`, and whether it still may be used. */
export interface IdleConn {
  conn: Deno.Conn;
  buffer: Uint8Array;
  /** The read started when it was parked: the next response's first bytes, or its end. */
  first: Promise<number | null>;
  /** True once taken for a request. */
  taken: boolean;
  /** True once the read ended while idle (closed by the daemon, or bytes nobody asked for). */
  dead: boolean;
}

const idle = new Map<string, IdleConn[]>();

/** A kept connection to `endpoint` whose watch saw nothing, or undefined; it is the caller's. */
export function takeIdle(endpoint: string): IdleConn | undefined {
  const list = idle.get(endpoint);
  while (list?.length) {
    const kept = list.pop()!;
    if (kept.dead) continue;
    kept.taken = true;
    try {
      kept.conn.ref();
    } catch { /* closed: the read says so */ }
    return kept;
  }
  return undefined;
}

/**
 * Keeps `conn` (just answered whole) for the next request to `endpoint`:
 * unref'd, with a read pending that drops it when it ends while idle.
 */
export function parkIdle(endpoint: string, conn: Deno.Conn, buffer: Uint8Array): void {
  const list = idle.get(endpoint) ?? [];
  if (list.length >= MAX_IDLE_PER_ENDPOINT) {
    closeQuietly(conn);
    return;
  }
  const kept: IdleConn = {
    conn,
    buffer,
    first: conn.read(buffer),
    taken: false,
    dead: false,
  };
  const drop = () => {
    if (kept.taken) return;
    kept.dead = true;
    const at = list.indexOf(kept);
    if (at >= 0) list.splice(at, 1);
    closeQuietly(conn);
  };
  // Whatever ends the read while idle (end of file, an error, bytes no request asked for)
  // makes the connection unusable; once taken, its result is the request's.
  kept.first.then(drop, drop);
  try {
    conn.unref();
  } catch { /* closed: the read ends and drops it */ }
  list.push(kept);
  idle.set(endpoint, list);
}

/** Closes every kept connection (tests; a process that wants none left). */
export function closeIdle(): void {
  for (const list of idle.values()) {
    for (const kept of list.splice(0)) {
      kept.dead = true;
      closeQuietly(kept.conn);
    }
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* closed already */ }
}

const CR = 13;
const LF = 10;

/**
 * The bytes of one HTTP/1.1 response as they arrive, and whether it is whole.
 *
 * @example
 * ```ts
 * import { ResponseFrame } from "./keep_alive.ts";
 * const f = new ResponseFrame();
 * const bytes = new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
 * if (f.push(bytes.subarray(0, 10)) || !f.push(bytes.subarray(10)) || !f.reusable) throw new Error();
 * ```
 */
export class ResponseFrame {
  #bytes = new Uint8Array(4096);
  #length = 0;
  /** Offset of the body's first byte; -1 until the head is whole. */
  #body = -1;
  #contentLength = -1;
  #chunked = false;
  /** Offset of the next chunk-size line, while chunked. */
  #chunkAt = 0;
  #whole = false;
  #keep = false;

  /** The bytes so far. */
  get bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }

  /**
   * The bytes as a buffer of their own, exactly as long, so its memory can be
   * given back whole once read (wire/wire.ts `wireRelease`); the frame is not
   * used after.
   */
  take(): Uint8Array {
    const buffer = this.#bytes.buffer as ArrayBuffer & { transfer?(length: number): ArrayBuffer };
    return typeof buffer.transfer === "function"
      ? new Uint8Array(buffer.transfer(this.#length))
      : this.#bytes.slice(0, this.#length);
  }

  /** True once the response is whole and the connection may carry another request. */
  get reusable(): boolean {
    return this.#whole && this.#keep;
  }

  /**
   * Adds `chunk` (copied); true once the response is whole.
   * @throws {Error} when a chunked body's size line is not hexadecimal.
   */
  push(chunk: Uint8Array): boolean {
    if (this.#length + chunk.length > this.#bytes.length) {
      let size = this.#bytes.length * 2;
      while (size < this.#length + chunk.length) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.bytes);
      this.#bytes = grown;
    }
    this.#bytes.set(chunk, this.#length);
    this.#length += chunk.length;
    if (this.#body < 0) this.#readHead();
    if (this.#body >= 0 && !this.#whole) this.#whole = this.#bodyWhole();
    return this.#whole;
  }

  #readHead(): void {
    const b = this.#bytes;
    for (let i = 0; i + 3 < this.#length; i++) {
      if (b[i] === CR && b[i + 1] === LF && b[i + 2] === CR && b[i + 3] === LF) {
        this.#body = i + 4;
        break;
      }
    }
    if (this.#body < 0) return;
    const lines = new TextDecoder().decode(b.subarray(0, this.#body - 4)).split("\r\n");
    const header = (name: string) =>
      lines.find((h) => h.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim()
        .toLowerCase();
    const status = Number(lines[0].split(" ")[1]);
    this.#chunked = /chunked/.test(header("transfer-encoding") ?? "");
    const length = header("content-length");
    this.#contentLength = !this.#chunked && length !== undefined ? Number(length) : -1;
    // 1xx, 204 and 304 have no body (RFC 9112 §6.3); an answer ended by the end of the
    // connection, or that says it closes, is not kept.
    const bodiless = status < 200 || status === 204 || status === 304;
    if (bodiless) this.#contentLength = 0;
    this.#keep = lines[0].startsWith("HTTP/1.1") && header("connection") !== "close" &&
      (this.#chunked || this.#contentLength >= 0);
    this.#chunkAt = this.#body;
  }

  #bodyWhole(): boolean {
    if (this.#contentLength >= 0) return this.#length >= this.#body + this.#contentLength;
    if (!this.#chunked) return false; // ends with the connection
    const b = this.#bytes;
    for (;;) {
      let eol = this.#chunkAt;
      while (eol + 1 < this.#length && !(b[eol] === CR && b[eol + 1] === LF)) eol++;
      if (eol + 1 >= this.#length) return false;
      const size = parseInt(new TextDecoder().decode(b.subarray(this.#chunkAt, eol)), 16);
      if (Number.isNaN(size)) throw new Error("the answer's chunked body is malformed");
      if (size === 0) {
        // The last chunk, then the trailer section, which an empty line ends.
        for (let i = eol; i + 3 < this.#length; i++) {
          if (b[i] === CR && b[i + 1] === LF && b[i + 2] === CR && b[i + 3] === LF) return true;
        }
        return false;
      }
      const next = eol + 2 + size + 2;
      if (next > this.#length) return false;
      this.#chunkAt = next;
    }
  }
}
