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
  // Small first: most heads fit in 2 KiB, and every connection pays for its buffer.
  let buffer = new Uint8Array(2048);
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
      if (length === buffer.length) {
        const grown = new Uint8Array(buffer.length * 2);
        grown.set(buffer);
        buffer = grown;
      }
      const n = await conn.read(buffer.subarray(length));
      if (n === null) return undefined;
      length += n;
      if (headEnd(buffer, length) >= 0 || length >= HEAD_SCAN_LIMIT) {
        return expired ? undefined : buffer.subarray(0, length);
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
async function copy(from: Deno.Conn, to: Deno.Conn): Promise<void> {
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

/** One connection: its head under the timeout, then relayed to the inner server. */
async function relay(
  conn: Deno.Conn,
  innerPath: string,
  timeoutMs: number,
  relays: Map<string, () => void>,
): Promise<void> {
  let upstream: Deno.UnixConn | undefined;
  const id = crypto.randomUUID();
  try {
    const head = await readHead(conn, timeoutMs);
    if (!head) return;
    upstream = await Deno.connect({ path: innerPath, transport: "unix" });
    const inner = upstream;
    // The inner server closes its side only once it sees the client's end: on the client's
    // end, or once the answer has been produced whole (`closing`), whichever is first.
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      inner.closeWrite().catch(() => {});
    };
    relays.set(id, end);
    await writeAll(upstream, tagged(head, id));
    // The client's further bytes (its body) go in, until it closes; the answer comes out.
    const inbound = copy(conn, inner).then(end, end);
    await copy(upstream, conn);
    // Answered: say so, and give the client a moment to stop sending and read it.
    await conn.closeWrite().catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([inbound, new Promise((r) => timer = setTimeout(r, LINGER_MS))]);
    clearTimeout(timer);
  } catch {
    /* either side went away: nothing to answer */
  } finally {
    relays.delete(id);
    for (const c of [upstream, conn]) {
      try {
        c?.close();
      } catch { /* closed already */ }
    }
  }
}

/** The header naming a relayed connection to the inner server (added here, removed there). */
const RELAY_HEADER = "x-mcpx-relay";

/** `head` with the relay header after its request line (unchanged when it has no whole line). */
function tagged(head: Uint8Array, id: string): Uint8Array {
  const line = head.indexOf(10);
  if (line < 0) return head;
  const tag = new TextEncoder().encode(`${RELAY_HEADER}: ${id}\r\n`);
  const out = new Uint8Array(head.length + tag.length);
  out.set(head.subarray(0, line + 1));
  out.set(tag, line + 1);
  out.set(head.subarray(line + 1), line + 1 + tag.length);
  return out;
}

/**
 * `response`, with `Connection: close`, and `done` called once its body has
 * been produced whole (at once when it has none). The inner server does not
 * close a connection after such an answer until the client's side ends
 * (measured), so the relay ends that side on `done`: one request per
 * connection, each head timed, nothing held after the answer.
 */
function closing(response: Response, done: (() => void) | undefined): Response {
  const headers = new Headers(response.headers);
  headers.set("connection", "close");
  let body = response.body;
  if (!body) queueMicrotask(() => done?.());
  else if (done) body = body.pipeThrough(new TransformStream({ flush: () => done() }));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The `done` of the relay `request` names, the header removed where the
 * request lets it be (a server request's headers may be immutable: then it
 * stays, and nothing reads it).
 */
function relayOf(request: Request, relays: Map<string, () => void>): (() => void) | undefined {
  const id = request.headers.get(RELAY_HEADER);
  if (id === null) return undefined;
  const done = relays.get(id);
  relays.delete(id);
  try {
    request.headers.delete(RELAY_HEADER);
  } catch { /* immutable */ }
  return done;
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
  const relays = new Map<string, () => void>();
  const inner = Deno.serve({
    path: innerPath,
    transport: "unix",
    signal: stop.signal,
    onListen() {},
    ...(options.onError ? { onError: options.onError } : {}),
  }, async (request, info) => {
    const done = relayOf(request, relays);
    // Deno resolves `completed` once the answer has been delivered (not in its types yet).
    const completed = (info as { completed?: Promise<unknown> }).completed;
    completed?.then(done, done);
    try {
      return closing(await handler(request), completed ? undefined : done);
    } catch (error) {
      done?.();
      throw error;
    }
  });
  const conns = new Set<Deno.Conn>();
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        conns.add(conn);
        relay(conn, innerPath, options.headerTimeoutMs, relays).finally(() => conns.delete(conn));
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
