/**
 * The daemon's `/v1` behind the listener guard (wire/listener_guard.ts,
 * decision 0058), in process on real sockets: what a browser page on another
 * origin sends is refused unrun, a body past the limit is refused before it
 * is read whole (socket and TCP), and a request head left half-sent is cut off.
 */
import assert from "node:assert/strict";
import { emptyDaemon } from "../engine/_empty_daemon.ts";
import { serveDaemon } from "./http.ts";
import { serveDaemonTcp } from "./http_tcp.ts";
import { bodyOf, postLarge, rawConnect, readToEnd, statusOf } from "../tests/_raw_http.ts";

/** A daemon with no servers, served on a unix socket and on TCP (port chosen by the system). */
async function daemonOnBoth(limits: { maxBodyBytes?: number; allowedOrigins?: string[] } = {}) {
  const { daemon, dir } = await emptyDaemon();
  let stops = 0;
  const socket = `${dir}/d.sock`;
  const unix = await serveDaemon(daemon, socket, () => stops++, limits);
  const tcp = serveDaemonTcp(daemon, {
    hostname: "127.0.0.1",
    port: 0,
    headerTimeoutMs: 300,
    ...limits,
  }, () => stops++);
  return {
    daemon,
    socket,
    port: tcp.addr.port,
    stops: () => stops,
    async [Symbol.asyncDispose]() {
      await tcp.shutdown();
      await unix.shutdown();
      await daemon.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** `fetch` of `/v1/<route>` on TCP. */
async function post(port: number, route: string, headers: Record<string, string>, body = "{}") {
  const response = await fetch(`http://127.0.0.1:${port}/v1/${route}`, {
    method: "POST",
    headers,
    body,
  });
  return { status: response.status, body: await response.json() };
}

Deno.test("daemon over TCP: a page on another localhost port is refused unrun, naming the origin and the setting", async () => {
  await using d = await daemonOnBoth();
  // The request of issue 24: a simple cross-site POST (no preflight) from http://localhost:3000.
  const page = await post(d.port, "stop", {
    origin: "http://localhost:3000",
    "content-type": "text/plain",
  });
  assert.equal(page.status, 403, JSON.stringify(page.body));
  assert.equal(page.body.error.code, "forbidden-origin");
  assert.match(page.body.error.message, /http:\/\/localhost:3000/);
  assert.match(page.body.error.message, /transport\.allowedOrigins/);
  assert.equal(d.stops(), 0, "the stop ran");
  // Without an Origin (curl, an SDK) but not JSON: 415, still unrun.
  const plain = await post(d.port, "stop", { "content-type": "text/plain" });
  assert.equal(plain.status, 415, JSON.stringify(plain.body));
  assert.equal(plain.body.error.code, "unsupported-media-type");
  assert.match(plain.body.error.message, /application\/json/);
  assert.equal(d.stops(), 0, "the stop ran");
  // The listener's own origin, and no Origin at all, with JSON: served.
  const own = await post(d.port, "health", {
    origin: `http://127.0.0.1:${d.port}`,
    "content-type": "application/json",
  });
  assert.equal(own.status, 200, JSON.stringify(own.body));
  const curl = await post(d.port, "health", { "content-type": "application/json" });
  assert.equal(curl.status, 200, JSON.stringify(curl.body));
});

Deno.test("daemon over TCP: transport.allowedOrigins admits a named origin, preflight included", async () => {
  await using d = await daemonOnBoth({ allowedOrigins: ["http://localhost:3000/"] });
  const preflight = await fetch(`http://127.0.0.1:${d.port}/v1/health`, {
    method: "OPTIONS",
    headers: {
      origin: "http://localhost:3000",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    },
  });
  await preflight.body?.cancel();
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), "http://localhost:3000");
  const admitted = await fetch(`http://127.0.0.1:${d.port}/v1/health`, {
    method: "POST",
    headers: { origin: "http://localhost:3000", "content-type": "application/json" },
    body: "{}",
  });
  assert.equal(admitted.status, 200, await admitted.text());
  assert.equal(admitted.headers.get("access-control-allow-origin"), "http://localhost:3000");
  const other = await post(d.port, "health", {
    origin: "http://localhost:4000",
    "content-type": "application/json",
  });
  assert.equal(other.status, 403);
});

Deno.test("daemon: a 100 MB body is refused with 413 before it is read whole, on the socket and on TCP, and the daemon answers after", async () => {
  await using d = await daemonOnBoth();
  const hundredMb = 100 * 1024 * 1024;
  for (const target of [{ path: d.socket }, { port: d.port }]) {
    const where = "path" in target ? "socket" : "tcp";
    const declared = await postLarge(target, "/v1/call", hundredMb, { chunked: false });
    assert.equal(statusOf(declared), 413, `${where}: ${declared.slice(0, 300)}`);
    const error = (bodyOf(declared) as { error: { code: string; message: string } }).error;
    assert.equal(error.code, "body-too-large");
    assert.match(error.message, /input\.maxBytes/);
    const chunked = await postLarge(target, "/v1/call", hundredMb, { chunked: true });
    assert.equal(statusOf(chunked), 413, `${where}, chunked: ${chunked.slice(0, 300)}`);
  }
  const health = await post(d.port, "health", { "content-type": "application/json" });
  assert.equal(health.status, 200);
});

Deno.test("daemon over TCP: a connection whose head (its first or a later one) stalls, or that idles after its answers, is closed after transport.headerTimeout", async () => {
  await using d = await daemonOnBoth();
  const conn = await rawConnect({ port: d.port });
  try {
    await conn.write(new TextEncoder().encode("POST /v1/health HTTP/1.1\r\nHo"));
    const read = await readToEnd(conn, 20_000);
    assert.equal(read.ended, true, "the half-sent head still held its connection");
    assert.equal(read.text, "", "nothing is answered to a head that never came whole");
  } finally {
    conn.close();
  }
  // A connection carries one request after another (decision 0077), each head timed: two whole
  // requests are answered on it; a third head sent by half is closed unanswered.
  const health = `POST /v1/health HTTP/1.1\r\nhost: 127.0.0.1:${d.port}\r\n` +
    "content-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
  const kept = await rawConnect({ port: d.port });
  try {
    // Two at once (pipelined), then a half-sent third.
    await kept.write(new TextEncoder().encode(health + health + "POST /v1/health HTTP/1.1\r\nHo"));
    const read = await readToEnd(kept, 20_000);
    assert.equal(read.text.match(/HTTP\/1\.1 200/g)?.length, 2, read.text);
    assert.equal(read.ended, true, "the half-sent third head held its connection");
  } finally {
    kept.close();
  }
  // An answered connection that sends nothing more is closed after the timeout too.
  const idle = await rawConnect({ port: d.port });
  try {
    await idle.write(new TextEncoder().encode(health));
    const read = await readToEnd(idle, 20_000);
    assert.equal(statusOf(read.text), 200, read.text);
    assert.equal(read.ended, true, "the idle connection stayed open after its answer");
  } finally {
    idle.close();
  }
  // A request that asks to close is the connection's last: answered, then ended at once.
  const closing = await rawConnect({ port: d.port });
  try {
    await closing.write(
      new TextEncoder().encode(health.replace("\r\n\r\n", "\r\nconnection: close\r\n\r\n")),
    );
    const read = await readToEnd(closing, 20_000);
    assert.match(read.text, /connection: close/i);
    assert.equal(read.ended, true);
  } finally {
    closing.close();
  }
});

Deno.test("GET /v1/events on TCP is behind the same guard, streams events, and ends when the daemon stops", async () => {
  await using d = await daemonOnBoth();
  const page = await fetch(`http://127.0.0.1:${d.port}/v1/events`, {
    headers: { origin: "http://localhost:3000" },
  });
  assert.equal(page.status, 403, "another origin is refused before the stream starts");
  assert.equal((await page.json()).error.code, "forbidden-origin");
  d.daemon.events.publish("call.finished", { server: "fs", data: { tool: "fs.read" } });
  const response = await fetch(`http://127.0.0.1:${d.port}/v1/events?since=0`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n\n")) text += (await reader.read()).value ?? "";
  assert.match(text, new RegExp(`^id: ${d.daemon.events.epoch}-1\nevent: call.finished\ndata: `));
  // The daemon shutting down ends the stream, so its listeners can close.
  await d.daemon.shutdown();
  while (!(await reader.read()).done) { /* the rest, if any */ }
});
