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
 * answers it. A connection carries one request after another (HTTP/1.1
 * persistent connections), each head timed: the first from the connection,
 * a later one from its first byte, or from the moment the answers before it
 * were delivered, whichever is first, so no request arrives unwatched and no
 * idle connection is held past the timeout. The relay frames each request by
 * its `content-length` (wire/request_framing.ts); one it does not frame (a
 * chunked body, `connection: close`, HTTP/1.0) is the last it times: it and
 * what follows go in as they come, and its answer carries `Connection: close`
 * (decision 0077).
 *
 * @module
 */

import { requestFraming } from "./request_framing.ts";
import { closeQuietly, copy, forwardBody, HeadClock, readHead, writeAll } from "./relay_io.ts";

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

/** How long, at most, a refused body's remaining bytes are read before the connection closes. */
const LINGER_MS = 2000;

/** What the inner server's handler learns of a relayed request by its tag. */
interface Relayed {
  /** Called once its answer has been delivered (or produced whole). */
  done: () => void;
  /** True: the connection goes on after it; false: its answer says `Connection: close`. */
  keep: boolean;
}

/**
 * One connection: each request head under the timeout, then the request
 * relayed to the inner server on one connection of its own, while the
 * answers flow back.
 */
async function relay(
  conn: Deno.Conn,
  innerPath: string,
  timeoutMs: number,
  relays: Map<string, Relayed>,
): Promise<void> {
  let upstream: Deno.UnixConn | undefined;
  /** The tags of this connection's requests whose answers are still due. */
  const open = new Set<string>();
  let count = 0;
  const connId = crypto.randomUUID();
  const clock = new HeadClock(timeoutMs, () => closeQuietly(conn));
  let waitingForHead = false;
  let ending = false;
  try {
    let pending: Uint8Array = new Uint8Array(0);
    let outbound: Promise<void> | undefined;
    let last = false;
    while (!last) {
      waitingForHead = true;
      // The first head is timed from the connection, a later one once the answers before it
      // are delivered (or from its own first byte, in readHead).
      if (open.size === 0) clock.arm();
      const read = await readHead(conn, pending, clock);
      waitingForHead = false;
      if (!read) break;
      const framing = read.whole
        ? requestFraming(new TextDecoder().decode(read.head.subarray(0, read.head.length - 4)))
        : { keep: false, bodyBytes: 0 };
      last = !framing.keep;
      if (!upstream) {
        upstream = await Deno.connect({ path: innerPath, transport: "unix" });
        // The answers, for the connection's life; when the inner server ends it, so does this.
        outbound = copy(upstream, conn).catch(() => {}).then(() => {
          if (!ending) closeQuietly(conn);
        });
      }
      const inner = upstream;
      const id = `${connId}-${count++}`;
      open.add(id);
      relays.set(id, {
        keep: framing.keep,
        done: () => {
          if (!open.delete(id)) return;
          relays.delete(id);
          if (open.size === 0 && waitingForHead) clock.arm();
          // The last request's answer is whole: the inner server closes once it sees our end.
          if (!framing.keep) inner.closeWrite().catch(() => {});
        },
      });
      await writeAll(inner, tagged(read.head, id));
      if (last) {
        // Not framed here: what follows goes in as it comes, until the client's end.
        await writeAll(inner, read.rest).catch(() => {});
        break;
      }
      pending = await forwardBody(conn, inner, read.rest, framing.bodyBytes, timeoutMs);
    }
    // No request follows: the answers still due go out, then the connection ends.
    ending = true;
    if (clock.expired || !upstream) return;
    const inbound = last ? copy(conn, upstream).catch(() => {}) : Promise.resolve();
    inbound.then(() => upstream?.closeWrite().catch(() => {}));
    if (!last) await upstream.closeWrite().catch(() => {});
    await outbound;
    // Answered: say so, and give the client a moment to stop sending and read it.
    await conn.closeWrite().catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([inbound, new Promise((r) => timer = setTimeout(r, LINGER_MS))]);
    clearTimeout(timer);
  } catch {
    /* either side went away: nothing to answer */
  } finally {
    ending = true;
    clock.disarm();
    for (const id of open) relays.delete(id);
    closeQuietly(upstream);
    closeQuietly(conn);
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
 * (measured), so the relay ends that side on `done`: nothing is held after
 * the connection's last answer.
 */
function closing(response: Response, done: (() => void) | undefined): Response {
  const headers = new Headers(response.headers);
  headers.set("connection", "close");
  let body = response.body;
  if (!body) queueMicrotask(() => done?.());
  else if (done) body = body.pipeThrough(new TransformStream({ flush: () => done() }));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** `response`, with `done` called once its body has been produced whole (at once without one). */
function noticed(response: Response, done: () => void): Response {
  if (!response.body) {
    queueMicrotask(done);
    return response;
  }
  const body = response.body.pipeThrough(new TransformStream({ flush: () => done() }));
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * What the relay `request` names, the header removed where the request lets
 * it be (a server request's headers may be immutable: then it stays, and
 * nothing reads it).
 */
function relayOf(request: Request, relays: Map<string, Relayed>): Relayed | undefined {
  const id = request.headers.get(RELAY_HEADER);
  if (id === null) return undefined;
  const relayed = relays.get(id);
  try {
    request.headers.delete(RELAY_HEADER);
  } catch { /* immutable */ }
  return relayed;
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
  const relays = new Map<string, Relayed>();
  const inner = Deno.serve({
    path: innerPath,
    transport: "unix",
    signal: stop.signal,
    onListen() {},
    ...(options.onError ? { onError: options.onError } : {}),
  }, async (request, info) => {
    const relayed = relayOf(request, relays);
    const done = relayed?.done;
    // Deno resolves `completed` once the answer has been delivered (not in its types yet).
    const completed = (info as { completed?: Promise<unknown> }).completed;
    completed?.then(done, done);
    try {
      const response = await handler(request);
      if (relayed?.keep) return completed || !done ? response : noticed(response, done);
      return closing(response, completed ? undefined : done);
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
        // An answer goes out in several writes (head, then body); Nagle's algorithm would hold
        // the later ones until the client acknowledges, which it delays (~40 ms a request).
        try {
          (conn as Deno.TcpConn).setNoDelay(true);
        } catch { /* closed already */ }
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
