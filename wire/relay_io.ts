/**
 * The byte-level parts of the guarded listener's relay (wire/guarded_listen.ts):
 * reading a request head under its timer ({@link HeadClock}, {@link readHead}),
 * relaying a body of known length ({@link forwardBody}) and a stream
 * ({@link copy}) through pooled buffers.
 *
 * @module
 */

/** The end of a request head. */
const HEAD_END = [13, 10, 13, 10];
/** Past this many bytes without the end of a head, the inner server judges it (431). */
const HEAD_SCAN_LIMIT = 64 * 1024;

/** Index just past the head's end in `bytes`, from `from`; -1 when not there yet. */
export function headEnd(bytes: Uint8Array, length: number): number {
  outer: for (let i = 0; i + 4 <= length; i++) {
    for (let j = 0; j < 4; j++) if (bytes[i + j] !== HEAD_END[j]) continue outer;
    return i + 4;
  }
  return -1;
}

/**
 * The timer of the head a connection waits for: armed at the connection's
 * start, at a head's first byte, or when the answers before it were
 * delivered; when it fires, the connection is closed unanswered.
 */
export class HeadClock {
  #timer: ReturnType<typeof setTimeout> | undefined;
  expired = false;
  constructor(readonly ms: number, readonly onExpire: () => void) {}
  /** Starts the timer, unless it runs already (or there is no limit). */
  arm(): void {
    if (this.#timer !== undefined || this.ms <= 0 || this.expired) return;
    this.#timer = setTimeout(() => {
      this.expired = true;
      this.onExpire();
    }, this.ms);
  }
  /** Stops it: the head came whole. */
  disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** A head read whole (or cut at {@link HEAD_SCAN_LIMIT}), and the bytes read past it. */
export interface ReadHead {
  head: Uint8Array;
  rest: Uint8Array;
  /** False when cut at the scan limit: the inner server judges it (431). */
  whole: boolean;
}

/**
 * Reads `conn`, after the bytes already read (`start`), until a request
 * head is whole; `clock` is armed at its first byte.
 *
 * @returns The head and what followed it, or undefined when the connection
 *   ended or the clock expired (the connection is then to be closed unanswered).
 */
export async function readHead(
  conn: Deno.Conn,
  start: Uint8Array,
  clock: HeadClock,
): Promise<ReadHead | undefined> {
  // Small first: most heads fit in 2 KiB, and every connection pays for its buffer.
  let buffer = new Uint8Array(Math.max(2048, start.length * 2));
  buffer.set(start);
  let length = start.length;
  try {
    for (;;) {
      if (length > 0) clock.arm();
      const end = headEnd(buffer, length);
      if (end >= 0 || length >= HEAD_SCAN_LIMIT) {
        if (clock.expired) return undefined;
        clock.disarm();
        const cut = end >= 0 ? end : length;
        return {
          head: buffer.subarray(0, cut),
          rest: buffer.slice(cut, length),
          whole: end >= 0,
        };
      }
      if (length === buffer.length) {
        const grown = new Uint8Array(buffer.length * 2);
        grown.set(buffer);
        buffer = grown;
      }
      const n = await conn.read(buffer.subarray(length));
      if (n === null || clock.expired) return undefined;
      length += n;
    }
  } catch {
    return undefined;
  }
}

export async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

/**
 * Buffers of {@link copy}, reused: a connection takes two for its life, and
 * thousands of short connections allocating their own leave hundreds of MB
 * of ArrayBuffers awaiting collection (measured: serve's RSS grew ~35 MB per
 * 1,000 refused requests before this pool).
 */
const POOL: Uint8Array[] = [];
const POOL_MAX = 64;
const COPY_BYTES = 16 * 1024;

/**
 * Copies `from` to `to` until `from` ends. Once `to` refuses a write (the
 * inner server answered and closed, say on a 413), what `from` still sends
 * is read and dropped, so its sender reads the answer rather than a reset.
 */
export async function copy(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  const buffer = POOL.pop() ?? new Uint8Array(COPY_BYTES);
  let open = true;
  try {
    for (;;) {
      const n = await from.read(buffer);
      if (n === null) return;
      if (!open) continue;
      try {
        await writeAll(to, buffer.subarray(0, n));
      } catch {
        open = false;
      }
    }
  } finally {
    if (POOL.length < POOL_MAX) POOL.push(buffer);
  }
}

/** Thrown by {@link forwardBody} when a body stops arriving for longer than its bound. */
export class BodyStalledError extends Error {
  override name = "BodyStalledError";
  /** @param ms The bound that passed with no byte, in ms. */
  constructor(readonly ms: number) {
    super(`the client sent no byte of its request body for ${ms} ms`);
  }
}

/**
 * Sends `bodyBytes` of request body to `inner`: what `rest` holds of it, then
 * from `conn`, never reading past it. A client that stops sending for
 * `idleMs` has its connection closed: without a bound a stalled body held
 * the connection, its buffers and the inner request as long as the client
 * liked (issue 24's bounds; decision 0077).
 *
 * @param idleMs The longest wait for a body's next bytes, in ms; 0: no limit.
 * @returns What `rest` held past the body (the next request's first bytes).
 * @throws {BodyStalledError} When `idleMs` passes with no byte (`conn` is then closed).
 * @throws When `conn` ends before the body does, or `inner` refuses it.
 */
export async function forwardBody(
  conn: Deno.Conn,
  inner: Deno.Conn,
  rest: Uint8Array,
  bodyBytes: number,
  idleMs = 0,
): Promise<Uint8Array> {
  const now = rest.subarray(0, Math.min(bodyBytes, rest.length));
  if (now.length) await writeAll(inner, now);
  let left = bodyBytes - now.length;
  if (left > 0) {
    const buffer = POOL.pop() ?? new Uint8Array(COPY_BYTES);
    let stalled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      if (idleMs <= 0) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = true;
        closeQuietly(conn);
      }, idleMs);
    };
    try {
      while (left > 0) {
        watch();
        const n = await conn.read(buffer.subarray(0, Math.min(left, buffer.length))).catch(
          (error) => {
            if (stalled) throw new BodyStalledError(idleMs);
            throw error;
          },
        );
        if (n === null) {
          if (stalled) throw new BodyStalledError(idleMs);
          throw new Error("the client ended in the middle of a body");
        }
        clearTimeout(timer);
        await writeAll(inner, buffer.subarray(0, n));
        left -= n;
      }
    } finally {
      clearTimeout(timer);
      if (POOL.length < POOL_MAX) POOL.push(buffer);
    }
  }
  return rest.subarray(now.length);
}

export function closeQuietly(conn: Deno.Conn | undefined): void {
  try {
    conn?.close();
  } catch { /* closed already */ }
}
