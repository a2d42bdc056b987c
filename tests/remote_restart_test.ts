/**
 * A Streamable HTTP server that restarts forgets every session; the next call
 * must reconnect on its own rather than fail until `mcpx restart`.
 */
import assert from "node:assert/strict";
import { background, eventually, freePort, SERVERS, world } from "./_helpers.ts";

Deno.test("call reconnects to a Streamable HTTP server that restarted and forgot the session", async () => {
  await using w = await world();
  const port = freePort();
  const [command, ...args] = SERVERS.everything;
  const env: Record<string, string> = { ...w.env, PORT: String(port) };
  delete env.MCPX_TEST_MARK;
  const listening = new RegExp(`(listening on|running on) port ${port}\\b`);
  const start = async () => {
    const server = background(command, [...args, "streamableHttp"], { env, cwd: w.dir });
    assert.ok(await eventually(() => listening.test(server.output()), 60_000), server.output());
    return server;
  };
  await w.writeConfig({ mcpServers: { h: { url: `http://127.0.0.1:${port}/mcp` } } });
  const first = await start();
  try {
    const before = await w.mcpx(["call", "h.echo", '{"message":"one"}']);
    assert.equal(before.code, 0, before.stderr);
  } finally {
    await first[Symbol.asyncDispose]();
  }
  // The daemon still holds its connection, with a session the next server will not know.
  const between = await w.json(["status"]);
  assert.equal(between.servers[0].instances.length, 1);
  await using second = await start();
  const after = await w.mcpx(["call", "h.echo", '{"message":"two"}']);
  assert.equal(after.code, 0, after.stderr);
  assert.match(after.stdout, /Echo: two/);
  assert.ok(!second.exited());
});
