/**
 * A TCP listener for mcpx's HTTP surfaces (the daemon's `/v1`,
 * daemon/http_tcp.ts, and `mcpx serve --http`) that closes a connection
 * whose request head (request line and headers) has not arrived whole
 * within `transport.headerTimeout` of its first byte or of the connection.
 * Without it a client that sends half a request line and stalls holds a
 * connection, and its buffers, for as long as it likes (issue 24, "Bodies,
 * sessions, headers"; decision 0058).
 *
 * `Deno.serve` has no such timeout (its HTTP/1.1 server is built without a
 * timer, so hyper's `header_read_timeout` never runs; measured on Deno 2.9.6:
 * a half-sent head stays open past 70 s) and takes no accepted connection.
 * So this module accepts the TCP connections itself, reads each one's head
 * under the timeout, then relays the connection byte for byte to a
 * `Deno.serve` on a unix socket in a fresh 0700 directory, which parses and
 * answers it. Every response carries `Connection: close`: one request per
 * connection, so every request's head is timed (no keep-alive request can
 * arrive unwatched).
 *
 * @module
 */

/** How a guarded TCP listener is bound. */
export interface GuardedListenOptions {
  hostname: string;
  /** 0 lets the system choose (see the returned `addr`). */
  port: number;
  /** Closes the listener and every connection. */
  signal?: AbortSignal;
  /** Milliseconds a request head may take to arrive whole; 0: no limit. */
  headerTimeoutMs: number;
  /** Told the address once listening, with the port actually bound. */
  onListen?: (addr: Deno.NetAddr) => void;
  /** The answer to an error the handler threw. */
  onError?: (error: unknown) => Response | Promise<Response>;
}

/** What {@link serveGuardedTcp} returns: as much of `Deno.HttpServer` as its callers use. */
export interface GuardedServer {
  /** Where it listens, with the port actually bound. */
  addr: Deno.NetAddr;
  /** Settles once the listener and its inner server have closed. */
  finished: Promise<void>;
  /** Stops accepting, ends the inner server; settles once it has. */
  shutdown(): Promise<void>;
}

/** The end of a request head. */
const HEAD_END = [13, 10, 13, 10];
/** Past this many bytes without the end of a head, the inner server judges it (431). */
const HEAD_SCAN_LIMIT = 64 * 1024;
/** How long, at most, a refused body's remaining bytes are read before the connection closes. */
const LINGER_MS = 2000;

/** Index just past the head's end in `bytes`, from `from`; -1 when not there yet. */
function headEnd(bytes: Uint8Array, length: number): number {
  outer: for (let i = 0; i + 4 <= length; i++) {
    for (let j = 0; j < 4; j++) if (bytes[i + j] !== HEAD_END[j]) continue outer;
    return i + 4;
  }
  return -1;
}

/**
 * Reads `conn` until its request head is whole, or the timeout passes, or
 * it ends.
 *
 * @returns The bytes read (the head and whatever followed it), or undefined
 *   when the connection is to be closed unanswered.
 */
async function readHead(conn: Deno.Conn, timeoutMs: number): Promise<Uint8Array | undefined> {
  const buffer = new Uint8Array(HEAD_SCAN_LIMIT + 4096);
  let length = 0;
  let expired = false;
  const timer = timeoutMs > 0
    ? setTimeout(() => {
      expired = true;
      try {
        conn.close();
      } catch { /* closed already */ }
    }, timeoutMs)
    : undefined;
  try {
    for (;;) {
      const n = await conn.read(buffer.subarray(length));
      if (n === null) return undefined;
      length += n;
      if (headEnd(buffer, length) >= 0 || length >= HEAD_SCAN_LIMIT) {
        return expired ? undefined : buffer.slice(0, length);
      }
    }
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

/** Reads and drops what a client still sends after its answer, briefly, so it reads the answer. */
async function linger(conn: Deno.Conn): Promise<void> {
  const timer = setTimeout(() => {
    try {
      conn.close();
    } catch { /* closed */ }
  }, LINGER_MS);
  try {
    await conn.closeWrite();
    const sink = new Uint8Array(64 * 1024);
    while (await conn.read(sink) !== null) { /* dropped */ }
  } catch {
    /* closed or reset */
  } finally {
    clearTimeout(timer);
  }
}

/** One connection: its head under the timeout, then relayed to the inner server. */
async function relay(conn: Deno.Conn, innerPath: string, timeoutMs: number): Promise<void> {
  let upstream: Deno.UnixConn | undefined;
  try {
    const head = await readHead(conn, timeoutMs);
    if (!head) return;
    upstream = await Deno.connect({ path: innerPath, transport: "unix" });
    await writeAll(upstream, head);
    const inner = upstream;
    // The client's further bytes (its body) go in; the pipe ends when either side closes.
    conn.readable.pipeTo(inner.writable).catch(() => {});
    await inner.readable.pipeTo(conn.writable, { preventClose: true });
    await linger(conn);
  } catch {
    /* either side went away: nothing to answer */
  } finally {
    for (const c of [upstream, conn]) {
      try {
        c?.close();
      } catch { /* closed already */ }
    }
  }
}

/** `response`, with `Connection: close`, so each connection carries one request. */
function closing(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("connection", "close");
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * Serves `handler` on TCP behind the header-read timeout (the module's design).
 *
 * @returns The server; `addr` holds the port actually bound.
 * @throws {Deno.errors.AddrInUse} when the port is taken, and whatever else
 *   `Deno.listen` throws (`AddrNotAvailable`, `PermissionDenied`), synchronously.
 */
export function serveGuardedTcp(
  options: GuardedListenOptions,
  handler: (request: Request) => Response | Promise<Response>,
): GuardedServer {
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const dir = Deno.makeTempDirSync({ prefix: "mcpx-listen-" });
  Deno.chmodSync(dir, 0o700);
  const innerPath = `${dir}/http.sock`;
  const stop = new AbortController();
  const inner = Deno.serve({
    path: innerPath,
    transport: "unix",
    signal: stop.signal,
    onListen() {},
    ...(options.onError ? { onError: options.onError } : {}),
  }, async (request) => closing(await handler(request)));
  const conns = new Set<Deno.Conn>();
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        conns.add(conn);
        relay(conn, innerPath, options.headerTimeoutMs).finally(() => conns.delete(conn));
      }
    } catch { /* the listener closed */ }
  })();
  let shut: Promise<void> | undefined;
  const shutdown = () =>
    shut ??= (async () => {
      try {
        listener.close();
      } catch { /* closed already */ }
      await accepting;
      stop.abort();
      await inner.finished.catch(() => {});
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    })();
  options.signal?.addEventListener("abort", () => void shutdown(), { once: true });
  const addr = listener.addr as Deno.NetAddr;
  options.onListen?.(addr);
  return { addr, finished: inner.finished.then(() => shutdown()), shutdown };
}
