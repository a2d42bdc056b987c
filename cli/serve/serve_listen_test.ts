/**
 * `mcpx serve --http`'s listener behind the guard every mcpx TCP listener
 * shares (wire/listener_guard.ts, decision 0058), in process on real
 * sockets: a page on another origin, a body that is not JSON, a body past the
 * limit and a half-sent head are refused before MCP sees them; and its
 * 2025-era sessions are capped and expire (cli/serve/serve_sessions.ts).
 */
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import { type EraHandler, listenMcp, type ServeListen } from "./serve_listen.ts";
import { legacySessions } from "./serve_sessions.ts";
import { postLarge, rawConnect, readToEnd, statusOf } from "../../tests/_raw_http.ts";

/** A listener whose eras count what reached them and answer 200. */
async function guarded(listen: Partial<ServeListen> = {}) {
  let reached = 0;
  const era: EraHandler = {
    handle: async (request) => {
      reached++;
      await request.body?.cancel();
      return Response.json({ jsonrpc: "2.0", id: 1, result: {} });
    },
    close: () => Promise.resolve(),
  };
  const stop = new AbortController();
  const { promise: url, resolve } = Promise.withResolvers<string>();
  const served = listenMcp(
    { address: "127.0.0.1", port: 0, headerTimeoutMs: 300, ...listen },
    { legacy: era, modern: era },
    resolve,
    stop.signal,
  );
  const base = await url;
  return {
    url: base,
    port: Number(new URL(base).port),
    reached: () => reached,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await served;
    },
  };
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};
const mcpHeaders = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

Deno.test("serve --http: another origin, a body not JSON, a body past the limit and a half-sent head are refused before MCP sees them", async () => {
  await using s = await guarded();
  const page = await fetch(s.url, {
    method: "POST",
    headers: { origin: "http://localhost:3000", "content-type": "text/plain" },
    body: JSON.stringify(initialize),
  });
  const refused = await page.json();
  assert.equal(page.status, 403);
  assert.match(refused.error.message, /http:\/\/localhost:3000.*transport\.allowedOrigins/);
  const plain = await fetch(s.url, {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: JSON.stringify(initialize),
  });
  await plain.body?.cancel();
  assert.equal(plain.status, 415);
  const hundredMb = 100 * 1024 * 1024;
  for (const chunked of [false, true]) {
    const large = await postLarge({ port: s.port }, "/mcp", hundredMb, {
      chunked,
      headers: { accept: mcpHeaders.accept },
    });
    assert.equal(statusOf(large), 413, `chunked ${chunked}: ${large.slice(0, 300)}`);
    assert.match(large, /input\.maxBytes/);
  }
  const conn = await rawConnect({ port: s.port });
  try {
    await conn.write(new TextEncoder().encode("POST /mcp HTTP/1.1\r\nHost: 127."));
    assert.equal((await readToEnd(conn, 20_000)).ended, true, "the half-sent head held on");
  } finally {
    conn.close();
  }
  assert.equal(s.reached(), 0, "a refused request reached MCP");
  const own = await fetch(s.url, {
    method: "POST",
    headers: { ...mcpHeaders, origin: `http://127.0.0.1:${s.port}` },
    body: JSON.stringify(initialize),
  });
  await own.body?.cancel();
  assert.equal(own.status, 200);
  assert.equal(s.reached(), 1);
});

/** POSTs `message` to a legacy endpoint, in a session or beginning one. */
function rpc(message: unknown, session?: string): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { ...mcpHeaders, ...(session ? { "mcp-session-id": session } : {}) },
    body: JSON.stringify(message),
  });
}

Deno.test("serve --http sessions: one past serve.maxSessions is refused saying why; an idle one expires and is told so", async () => {
  const ended: string[] = [];
  const sessions = await legacySessions(
    () => new McpServer({ name: "t", version: "1" }),
    { maxSessions: 3, idleTimeoutMs: 400, onEnded: (id) => Promise.resolve(void ended.push(id)) },
  );
  try {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await sessions.handle(rpc(initialize));
      await response.body?.cancel();
      assert.equal(response.status, 200);
      ids.push(response.headers.get("mcp-session-id")!);
    }
    const fourth = await sessions.handle(rpc(initialize));
    const why = await fourth.json();
    assert.equal(fourth.status, 503);
    assert.match(why.error.message, /3 sessions.*serve\.maxSessions/);
    assert.equal(fourth.headers.get("mcp-session-id"), null);
    // Kept busy, the first lives on; the others expire once idle.
    const deadline = Date.now() + 20_000;
    while (ended.length < 2 && Date.now() < deadline) {
      const ping = await sessions.handle(rpc({ jsonrpc: "2.0", id: 2, method: "ping" }, ids[0]));
      await ping.body?.cancel();
      assert.equal(ping.status, 200);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(ended.sort(), [ids[1], ids[2]].sort(), "the idle sessions did not expire");
    const late = await sessions.handle(rpc({ jsonrpc: "2.0", id: 3, method: "ping" }, ids[1]));
    const told = await late.json();
    assert.equal(late.status, 404);
    assert.equal(told.error.code, -32001);
    assert.match(told.error.message, /expired.*serve\.sessionIdleTimeout/);
    // Room again: a new session begins.
    const again = await sessions.handle(rpc(initialize));
    await again.body?.cancel();
    assert.equal(again.status, 200);
  } finally {
    await sessions.close();
  }
});
