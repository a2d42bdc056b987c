/**
 * Direct targets: `mcpx ls|types|call <url>` and `--stdio "cmd args…"` reach
 * server-everything with no configuration file at all (decision 0033).
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

const EVERYTHING_STDIO = "npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio";

/** Every file under `dir`, read as text (none when it does not exist). */
async function textsUnder(dir: string): Promise<string> {
  let all = "";
  try {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) all += await textsUnder(path);
      else if (entry.isFile) all += await Deno.readTextFile(path).catch(() => "");
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return all;
}

Deno.test("ls, types, call, prompts and resources reach a URL over Streamable HTTP and SSE with no configuration", async (t) => {
  await using w = await world();
  const started = await Promise.allSettled([
    remoteEverything(w, "streamableHttp"),
    remoteEverything(w, "sse"),
  ]);
  await using remotes = new AsyncDisposableStack();
  for (const s of started) if (s.status === "fulfilled") remotes.use(s.value);
  for (const s of started) if (s.status === "rejected") throw s.reason;
  const [http, sse] = started.map((s) => (s as PromiseFulfilledResult<RemoteServer>).value);

  for (const [kind, url] of [["Streamable HTTP", http.url], ["SSE", sse.url]]) {
    await t.step(`${kind}: ls lists the one server, ready`, async () => {
      const { namespaces } = await w.json(["ls", url]);
      assert.equal(namespaces.length, 1);
      assert.equal(namespaces[0].state, "ready", JSON.stringify(namespaces[0]));
      assert.ok(namespaces[0].tools > 0);
      assert.equal(namespaces[0].namespace, `_127_0_0_1_${new URL(url).port}`);
    });
    await t.step(`${kind}: types declares the namespace, or just the tool named`, async () => {
      const all = await w.mcpx(["types", url]);
      assert.equal(all.code, 0, all.stderr);
      assert.match(all.stdout, /^declare namespace _127_0_0_1_\d+ \{/m);
      const echo = await w.mcpx(["types", url, "echo"]);
      assert.equal(echo.code, 0, echo.stderr);
      assert.match(echo.stdout, /function echo\(/);
      assert.doesNotMatch(echo.stdout, /function get_sum\(/);
    });
    await t.step(`${kind}: call <url> echo answers`, async () => {
      const r = await w.mcpx(["call", url, "echo", '{"message":"hi"}']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "Echo: hi\n");
    });
    await t.step(`${kind}: prompts and resources list, render and read`, async () => {
      const prompts = await w.mcpx(["prompts", url]);
      assert.equal(prompts.code, 0, prompts.stderr);
      assert.match(prompts.stdout, /\.args-prompt\s+city \(required\)/);
      const rendered = await w.mcpx(["prompts", url, "args-prompt", "city=Oslo"]);
      assert.equal(rendered.code, 0, rendered.stderr);
      assert.match(rendered.stdout, /Oslo/);
      const resources = await w.mcpx(["resources", url]);
      assert.equal(resources.code, 0, resources.stderr);
      const uri = "demo://resource/static/document/architecture.md";
      assert.match(resources.stdout, new RegExp(uri.replaceAll(".", "\\.")));
      const read = await w.mcpx(["resources", url, uri]);
      assert.equal(read.code, 0, read.stderr);
      assert.match(read.stdout, /Architecture/);
    });
  }
});

Deno.test("--stdio reaches a command's server with no configuration, and its daemon ends idle", async () => {
  await using w = await world();
  // A target's daemon ends a minute after its last request (the generated file's
  // daemon.idleTimeout, held in config/direct_target_test.ts); here three seconds, from the
  // environment, which wins over the file, so the test can see it end by itself.
  const short = { env: { MCPX_DAEMON_IDLE_TIMEOUT: "3s" } };
  const ls = await w.json(["ls", "--stdio", EVERYTHING_STDIO], short);
  assert.deepEqual(
    ls.namespaces.map((n: { namespace: string; state: string }) => [n.namespace, n.state]),
    [["server_everything", "ready"]],
  );
  const args = ["call", "--stdio", EVERYTHING_STDIO, "echo", '{"message":"hi"}'];
  const r = await w.mcpx(args, short);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "Echo: hi\n");
  const types = await w.mcpx(["types", "--stdio", EVERYTHING_STDIO, "echo"], short);
  assert.equal(types.code, 0, types.stderr);
  assert.match(types.stdout, /declare namespace server_everything \{/);
  // Watched through /proc, not `mcpx daemons`, whose health check is a request that would keep
  // the daemon from ever being idle.
  assert.ok(
    await eventually(() => w.processes().length === 0, 30_000),
    "a direct target's daemon, or its server, outlived its idle timeout",
  );
  assert.deepEqual((await w.json(["daemons"])).daemons, []);
});

Deno.test("credentials in a direct URL never reach stdout, stderr or the log", async () => {
  await using w = await world();
  await using http = await remoteEverything(w, "streamableHttp");
  const url = new URL(http.url);
  url.username = "direct-user-5150";
  url.password = "pw-secret-8086";
  url.searchParams.set("token", "tok-secret-6502");
  const secrets = ["direct-user-5150", "pw-secret-8086", "tok-secret-6502"];
  const runs = [
    await w.mcpx(["ls", url.href]),
    await w.mcpx(["types", url.href, "echo"]),
    await w.mcpx(["call", url.href, "echo", '{"message":"hi"}']),
    await w.mcpx(["call", url.href, "no_such_tool", "{}"]),
    await w.mcpx(["--json", "ls", url.href]),
  ];
  assert.equal(runs[2].code, 0, runs[2].stderr);
  assert.equal(runs[2].stdout, "Echo: hi\n");
  const log = await textsUnder(`${w.env.XDG_STATE_HOME}/mcpx/logs`);
  assert.ok(log.length > 0, "the daemon wrote a log");
  for (const secret of secrets) {
    for (const r of runs) {
      assert.ok(!r.stdout.includes(secret), `${secret} in stdout:\n${r.stdout}`);
      assert.ok(!r.stderr.includes(secret), `${secret} in stderr:\n${r.stderr}`);
    }
    assert.ok(!log.includes(secret), `${secret} in the log`);
  }
});

Deno.test("a direct target that fails says which and what to check", async (t) => {
  await using w = await world();
  await t.step("an unreachable URL", async () => {
    // A port nothing listens on.
    const nobody = `http://127.0.0.1:${freePort()}/mcp`;
    const r = await w.mcpx(["call", nobody, "echo", "{}"]);
    assert.equal(r.code, 1);
    assert.ok(r.stderr.includes(`at ${nobody}`), r.stderr);
    assert.match(r.stderr, /named on the command line: check that the address is right/);
    assert.doesNotMatch(r.stderr, STACK_LINE);
    const ls = await w.mcpx(["ls", nobody]);
    assert.equal(ls.code, 1, "ls of a failed direct target fails");
    assert.match(ls.stderr, /^error: .*Connection refused/m);
  });
  await t.step("an HTTP endpoint that is not MCP", async () => {
    await using site = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen: () => {} },
      () => new Response("<html>hello</html>", { status: 404 }),
    );
    const target = `http://127.0.0.1:${site.addr.port}/mcp`;
    const r = await w.mcpx(["call", target, "echo", "{}"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /HTTP 404/);
    assert.match(r.stderr, new RegExp(`${site.addr.port}/mcp was named on the command line`));
  });
  await t.step("a command that is not found", async () => {
    const r = await w.mcpx(["call", "--stdio", "no-such-mcp-server-cmd --x", "echo", "{}"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /command "no-such-mcp-server-cmd" was not found/);
    assert.match(r.stderr, /--stdio 'no-such-mcp-server-cmd --x' was named on the command line/);
  });
  await t.step(
    "a URL and --stdio together, and a call without a tool, are usage errors",
    async () => {
      const both = await w.mcpx(["ls", "http://127.0.0.1:9/mcp", "--stdio", "x"]);
      assert.equal(both.code, 2);
      assert.match(both.stderr, /either a URL or --stdio/);
      const noTool = await w.mcpx(["call", "http://127.0.0.1:9/mcp"]);
      assert.equal(noTool.code, 2);
      assert.match(noTool.stderr, /needs the tool to call/);
    },
  );
});
