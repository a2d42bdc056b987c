/**
 * Discovery and calls over Streamable HTTP and SSE against server-everything
 * run as a remote on a free port, the way a user runs it.
 */

import assert from "node:assert/strict";
import {
  eventually,
  freePort,
  remoteEverything,
  type RemoteServer,
  STACK_LINE,
  world,
} from "./_helpers.ts";

Deno.test("ls, search, types and call work over Streamable HTTP and SSE", async (t) => {
  await using w = await world();
  const started = await Promise.allSettled([
    remoteEverything(w, "streamableHttp"),
    remoteEverything(w, "sse"),
  ]);
  await using remotes = new AsyncDisposableStack();
  for (const s of started) if (s.status === "fulfilled") remotes.use(s.value);
  for (const s of started) if (s.status === "rejected") throw s.reason;
  const [http, sse] = started.map((s) => (s as PromiseFulfilledResult<RemoteServer>).value);
  await w.writeConfig({
    mcpServers: {
      // The transport of `/mcp` is inferred; `/sse` is named explicitly.
      remote_http: { url: http.url },
      remote_sse: { url: sse.url, transport: "sse" },
    },
  });

  await t.step("ls lists both remotes with their transports and tools", async () => {
    const { namespaces } = await w.json(["ls"]);
    for (const ns of namespaces) {
      assert.equal(ns.state, "ready", JSON.stringify(ns));
      assert.ok(ns.tools > 0);
    }
    const { servers } = await w.json(["status"]);
    assert.deepEqual(
      servers.map((s: { namespace: string; transport: string }) => [s.namespace, s.transport]),
      [["remote_http", "http"], ["remote_sse", "sse"]],
    );
  });

  await t.step("search finds echo on both remotes first", async () => {
    const { hits } = await w.json(["search", "echo"]);
    assert.deepEqual(
      hits.slice(0, 2).map((h: { function: string }) => h.function).sort(),
      ["remote_http.echo", "remote_sse.echo"],
    );
  });

  await t.step("types declares each remote's namespace", async () => {
    const r = await w.mcpx(["types", "remote_http", "remote_sse.echo"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^declare namespace remote_http \{/m);
    assert.match(r.stdout, /^declare namespace remote_sse \{/m);
  });

  await t.step(
    "call returns text, structured output and isError over both transports",
    async () => {
      for (const ns of ["remote_http", "remote_sse"]) {
        const echo = await w.mcpx(["call", `${ns}.echo`, `{"message":"via ${ns}"}`]);
        assert.equal(echo.code, 0, echo.stderr);
        assert.equal(echo.stdout, `Echo: via ${ns}\n`);
        const weather = await w.mcpx([
          "call",
          `${ns}.get_structured_content`,
          '{"location":"New York"}',
        ]);
        assert.equal(weather.code, 0, weather.stderr);
        assert.equal(typeof JSON.parse(weather.stdout).temperature, "number");
        const bad = await w.mcpx(["call", `${ns}.echo`, "{}"]);
        assert.equal(bad.code, 1);
        assert.match(bad.stderr, /returned an error/);
      }
      const { servers } = await w.json(["status"]);
      for (const s of servers) {
        assert.equal(s.instances.length, 1, `${s.namespace}: one remote connection`);
        assert.equal(s.instances[0].pid, undefined, "a remote has no child process");
      }
    },
  );

  await t.step("stop closes the remote connections and leaves no process", async () => {
    assert.deepEqual(await w.json(["stop"]), { stopped: 1 });
    assert.ok(await eventually(() => w.processes().length === 0), `left: ${w.processes()}`);
    assert.ok(!http.process.exited() && !sse.process.exited(), "the remotes keep running");
    const ls = await w.json(["ls"]);
    assert.ok(ls.namespaces.every((n: { state: string }) => n.state === "ready"));
  });
});

Deno.test("ls, status and call name the reason a remote refuses connections", async () => {
  await using w = await world();
  const port = freePort(); // nothing listens here
  await w.writeConfig({
    mcpServers: {
      gone_http: { url: `http://127.0.0.1:${port}/mcp` },
      gone_sse: { url: `http://127.0.0.1:${port}/sse` },
    },
  });
  const { namespaces } = await w.json(["ls"]);
  for (const ns of namespaces) {
    assert.equal(ns.state, "error");
    assert.match(ns.error, new RegExp(`at http://127\\.0\\.0\\.1:${port}/(mcp|sse)`));
    assert.match(ns.error, /[Cc]onnection refused/, ns.error);
  }
  const { servers } = await w.json(["status"]);
  for (const s of servers) assert.match(s.failure.message, /[Cc]onnection refused/);
  const call = await w.mcpx(["call", "gone_http.echo", '{"message":"x"}']);
  assert.equal(call.code, 1);
  assert.match(call.stderr, /^error: server "gone_http" at .*[Cc]onnection refused/);
  assert.doesNotMatch(call.stderr, STACK_LINE);
});
