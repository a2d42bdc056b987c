/**
 * The guarded listener's connections (decision 0077): one request after
 * another on a connection, each head timed, an answer slower than the
 * timeout never cut, a body split across writes relayed whole.
 */

import assert from "node:assert/strict";
import { serveGuardedTcp } from "./guarded_listen.ts";
import { rawConnect, readToEnd } from "../tests/_raw_http.ts";

/** A guarded server (300 ms head timeout) answering each POST's body back, after `delayMs`. */
function echoing(delayMs = 0) {
  const stop = new AbortController();
  const server = serveGuardedTcp(
    { hostname: "127.0.0.1", port: 0, signal: stop.signal, headerTimeoutMs: 300 },
    async (request) => {
      const body = await request.text();
      await new Promise((r) => setTimeout(r, delayMs));
      return new Response(`got ${body}`);
    },
  );
  return {
    port: server.addr.port,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await server.finished;
    },
  };
}

const post = (body: string, extra = "") =>
  `POST /x HTTP/1.1\r\nhost: a\r\ncontent-length: ${body.length}\r\n${extra}\r\n${body}`;
const encode = (text: string) => new TextEncoder().encode(text);

Deno.test("guarded listener: an answer slower than the head timeout is delivered, and the connection carries the next request", async () => {
  await using s = echoing(700);
  const conn = await rawConnect({ port: s.port });
  try {
    await conn.write(encode(post("one")));
    // Waits past the 300 ms timeout for the first answer, then sends the second request.
    const buffer = new Uint8Array(4096);
    let text = "";
    while (!text.includes("got one")) {
      const n = await conn.read(buffer);
      assert.notEqual(n, null, `closed before the slow answer: ${text}`);
      text += new TextDecoder().decode(buffer.subarray(0, n!));
    }
    await conn.write(encode(post("two")));
    const rest = await readToEnd(conn, 20_000);
    assert.match(rest.text, /got two/);
    assert.equal(rest.ended, true, "the idle connection was not closed after its answers");
  } finally {
    conn.close();
  }
});

Deno.test("guarded listener: a body split across writes, with the next request after it, is relayed whole; a chunked request ends the connection", async () => {
  await using s = echoing();
  const conn = await rawConnect({ port: s.port });
  try {
    const first = post("hello world");
    const cut = first.length - 5;
    await conn.write(encode(first.slice(0, cut)));
    await new Promise((r) => setTimeout(r, 50));
    await conn.write(
      encode(
        first.slice(cut) +
          "POST /x HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      ),
    );
    const read = await readToEnd(conn, 20_000);
    assert.match(read.text, /got hello world/);
    assert.match(read.text, /got abc/);
    assert.match(read.text.slice(read.text.indexOf("got hello world")), /connection: close/i);
    assert.equal(read.ended, true);
  } finally {
    conn.close();
  }
});

Deno.test("guarded listener: a body that stops arriving is cut after the timeout, and the handler is not left waiting", async () => {
  let handlerSettled!: () => void;
  const settled = new Promise<void>((r) => handlerSettled = r);
  const stop = new AbortController();
  const server = serveGuardedTcp(
    { hostname: "127.0.0.1", port: 0, signal: stop.signal, headerTimeoutMs: 300 },
    async (request) => {
      try {
        return new Response(`got ${await request.text()}`);
      } catch {
        return new Response("cut", { status: 400 });
      } finally {
        handlerSettled();
      }
    },
  );
  const conn = await rawConnect({ port: server.addr.port });
  try {
    // Promises ten bytes, sends three, then nothing.
    await conn.write(encode("POST /x HTTP/1.1\r\nhost: a\r\ncontent-length: 10\r\n\r\nabc"));
    const read = await readToEnd(conn, 20_000);
    assert.equal(read.ended, true, "a stalled body kept its connection open");
    assert.doesNotMatch(read.text, /got abc/);
    await settled;
  } finally {
    conn.close();
    stop.abort();
    await server.finished;
  }
});
