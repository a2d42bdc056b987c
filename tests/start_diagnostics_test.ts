/**
 * What a failed or noisy server leaves for the user (issue 8, "The first
 * start on a fresh machine"): a remote's HTTP status and URL (its key shown as its place, decision 0017), the
 * stderr line that says what went wrong however long the trace under it,
 * and stdout lines that are not JSON-RPC kept in the durable log as warnings.
 */
import assert from "node:assert/strict";
import { fixtureServer, STACK_LINE, world } from "./_helpers.ts";

Deno.test("a remote server that answers 404, 401 or 503 is reported with the HTTP status and its URL", async (t) => {
  // A web server that is not an MCP endpoint: every request gets one status.
  let status = 404;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(status === 401 ? '{"error":"invalid_token"}' : "no such thing", { status }),
  );
  try {
    await using w = await world();
    const base = `http://127.0.0.1:${server.addr.port}`;
    for (const transport of ["http", "sse"] as const) {
      for (
        const [code, reason, advice] of [
          [404, "Not Found", /check mcpServers\.web\.url/],
          [401, "Unauthorized", /refused the credentials: check mcpServers\.web\.headers/],
          [503, "Service Unavailable", /the server failed/],
        ] as const
      ) {
        await t.step(`${transport} ${code}`, async () => {
          status = code;
          const url = `${base}/${transport === "sse" ? "sse" : "mcp"}?key=sk-secret-${code}`;
          await w.writeConfig({ mcpServers: { web: { url, transport } } });
          const ls = await w.json(["ls"]);
          const error: string = ls.namespaces[0].error ?? "";
          assert.match(error, new RegExp(`HTTP ${code} ${reason}`), error);
          assert.ok(
            error.includes(
              `${base}/${transport === "sse" ? "sse" : "mcp"}?key=\${mcpServers.web.url.query.key}`,
            ),
            error,
          );
          assert.match(error, advice);
          assert.doesNotMatch(error, /sk-secret/);
          await w.mcpx(["stop"]);
        });
      }
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("a node server whose file is missing is reported with node's `Cannot find module` line", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { gone: { command: "node", args: [`${w.dir}/dist/server.js`] } },
  });
  const ls = await w.json(["ls"]);
  const error: string = ls.namespaces[0].error ?? "";
  assert.equal(ls.namespaces[0].state, "error");
  assert.match(error, /Error: Cannot find module '.*\/dist\/server\.js'/, error);
  for (const args of [["call", "gone.anything", "{}"], ["status"]]) {
    const r = await w.mcpx(args);
    assert.match(
      r.stdout + r.stderr,
      /Error: Cannot find module '.*\/dist\/server\.js'/,
      `${args[0]}: ${r.stdout}${r.stderr}`,
    );
    assert.doesNotMatch(r.stdout + r.stderr, STACK_LINE, "node's stack frames are left out");
  }
});

Deno.test("a stdio server's stdout lines that are not JSON-RPC are logged as warnings and the server keeps working", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { noisy: fixtureServer({ env: { MISBEHAVE_GARBAGE: "1" } }) },
  });
  const call = await w.mcpx(["call", "noisy.echo", '{"text":"still here"}']);
  assert.equal(call.code, 0, call.stderr);
  assert.equal(call.stdout, "still here\n");
  const { records } = await w.json(["log", "--event", "server.stdout", "--level", "warn"]);
  const lines = records.map((r: { attrs: { line: string } }) => r.attrs.line);
  assert.ok(
    lines.includes("Starting misbehaving server v1 (this line is not JSON-RPC)"),
    JSON.stringify(records),
  );
  assert.ok(lines.includes("debug: echo still here"), JSON.stringify(lines));
  const record = records[0];
  assert.equal(record.level, "warn");
  assert.equal(record.attrs.server, "noisy");
});
