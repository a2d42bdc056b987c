/**
 * `mcpx serve --http` as a process, at the edges of its HTTP listener: a
 * client that leaves in the middle of its body costs serve nothing it prints
 * (Deno prints a handler's uncaught error, with its stack, on stderr itself);
 * a body past the SDK's own 4 MiB default but within `input.maxBytes` is
 * taken, in both eras.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { backgroundMcpx, eventually, freePort, world } from "./_helpers.ts";
import { rawConnect } from "./_raw_http.ts";

Deno.test("mcpx serve --http: a client that leaves in the middle of its body prints no stack trace, and serve answers after", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  const port = freePort();
  await using serve = backgroundMcpx(w, ["serve", "--http", "--port", String(port)]);
  assert.ok(await eventually(() => /listening on/.test(serve.output()), 60_000), serve.output());
  for (let i = 0; i < 3; i++) {
    const conn = await rawConnect({ port });
    await conn.write(
      new TextEncoder().encode(
        `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n` +
          'accept: application/json, text/event-stream\r\ncontent-length: 100\r\n\r\n{"jso',
      ),
    );
    await new Promise((r) => setTimeout(r, 50));
    conn.close();
  }
  const answered = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    }),
  });
  await answered.body?.cancel();
  assert.equal(answered.status, 200);
  assert.doesNotMatch(serve.output(), /BadResource|\n\s+at /, serve.output());
});

Deno.test("mcpx serve --http takes an 8 MB mcpx_call, past the SDK's 4 MiB default, in both eras", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  const port = freePort();
  await using serve = backgroundMcpx(w, ["serve", "--http", "--port", String(port)]);
  assert.ok(await eventually(() => /listening on/.test(serve.output()), 60_000), serve.output());
  const message = "x".repeat(8_000_000);
  for (const modern of [false, true]) {
    const client = new Client({ name: "big", version: "0" }, {
      ...(modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
    );
    try {
      // No such namespace: the answer is mcpx's own error result, which it can give only once the
      // body was taken whole (a 413 throws instead).
      const r = await client.callTool({
        name: "mcpx_call",
        arguments: { target: "nope.echo", arguments: { message } },
      });
      assert.equal(r.isError, true);
      assert.match(JSON.stringify(r.content), /nope/);
    } finally {
      await client.close();
    }
  }
});
