/**
 * Both protocol eras through mcpx (issue 12; decision 0031): a 2026-07-28-only
 * fixture, a dual-era fixture (both built with the SDK's server package) and
 * the real server-everything (legacy), under each `protocol` mode, through
 * `ls`, `call`, `exec` and `status`.
 */

import assert from "node:assert/strict";
import { background, eventually, fixtureServer, freePort, stdioServer, world } from "./_helpers.ts";
import { fixtureArgv } from "../dev/fixture_servers.ts";

const modernOnly = (protocol?: string) =>
  fixtureServer({ fixture: "modern_only", ...(protocol ? { mcpx: { protocol } } : {}) });
const dual = (protocol: string) => fixtureServer({ fixture: "dual", mcpx: { protocol } });

/** `ls --json` rows by namespace. */
async function lsRows(w: Awaited<ReturnType<typeof world>>) {
  const ls = await w.json(["ls"]);
  return Object.fromEntries(ls.namespaces.map((r: any) => [r.namespace, r]));
}

Deno.test("a 2026-07-28-only server is reached under auto (the default), preferModern and modern, and refused under legacy", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      m_default: modernOnly(),
      m_prefer: modernOnly("preferModern"),
      m_modern: modernOnly("modern"),
      m_legacy: modernOnly("legacy"),
    },
  });
  const rows = await lsRows(w);
  for (const ns of ["m_default", "m_prefer", "m_modern"]) {
    assert.equal(rows[ns].state, "ready", JSON.stringify(rows[ns]));
    assert.equal(rows[ns].tools, 2);
    assert.equal(rows[ns].protocol, "2026-07-28");
  }
  assert.equal(rows.m_legacy.state, "error");
  assert.match(rows.m_legacy.error, /speaks only protocol 2026-07-28/);
  assert.match(rows.m_legacy.error, /"protocol": "auto"/);
  assert.equal(rows.m_legacy.protocol, undefined);

  // The request carried the 2026-07-28 envelope: the fixture answers the revision it read.
  for (const ns of ["m_default", "m_prefer", "m_modern"]) {
    const call = await w.mcpx(["call", `${ns}.revision`, "{}"]);
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stdout.trim(), "2026-07-28");
  }
  const echo = await w.mcpx(["call", "m_default.echo", '{"text":"hi"}']);
  assert.equal(echo.stdout.trim(), "hi", echo.stderr);
  const refused = await w.mcpx(["call", "m_legacy.echo", '{"text":"hi"}']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /speaks only protocol 2026-07-28.*never tries that era/);

  const script = await w.mcpx([
    "exec",
    'const r = await m_default.revision({}); const e = await m_modern.echo({ text: "x" }); `${r} ${e}`',
  ]);
  assert.equal(script.code, 0, script.stderr);
  assert.equal(script.stdout.trim(), "2026-07-28 x");

  const status = await w.json(["status"]);
  const revisions = Object.fromEntries(
    status.servers.map((r: any) => [r.namespace, r.instances.map((i: any) => i.protocol)]),
  );
  assert.deepEqual(revisions.m_default, ["2026-07-28"]);
  assert.deepEqual(revisions.m_modern, ["2026-07-28"]);
  const table = await w.mcpx(["status"]);
  assert.match(table.stdout, /PROTOCOL/);
});

Deno.test("a dual-era server speaks 2026-07-28 under preferModern and modern, 2025-era under auto and legacy", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      d_auto: dual("auto"),
      d_legacy: dual("legacy"),
      d_prefer: dual("preferModern"),
      // Spec 002's form: stateless means 2026-07-28 only.
      d_modern: { ...fixtureServer({ fixture: "dual" }), protocol: { mode: "stateless" } },
    },
  });
  const rows = await lsRows(w);
  assert.equal(rows.d_auto.protocol, "2025-11-25");
  assert.equal(rows.d_legacy.protocol, "2025-11-25");
  assert.equal(rows.d_prefer.protocol, "2026-07-28");
  assert.equal(rows.d_modern.protocol, "2026-07-28");
  for (const [ns, seen] of [["d_auto", "none"], ["d_prefer", "2026-07-28"]]) {
    const call = await w.mcpx(["call", `${ns}.revision`, "{}"]);
    assert.equal(call.stdout.trim(), seen, call.stderr);
  }
});

Deno.test("server-everything (legacy) works under auto and preferModern and is refused clearly under modern", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      e_auto: stdioServer("everything"),
      e_prefer: stdioServer("everything", [], { protocol: "preferModern" }),
      e_modern: stdioServer("everything", [], { protocol: "modern" }),
    },
  });
  const rows = await lsRows(w);
  assert.equal(rows.e_auto.state, "ready");
  assert.equal(rows.e_auto.protocol, "2025-11-25");
  assert.equal(rows.e_prefer.state, "ready");
  assert.equal(rows.e_prefer.protocol, "2025-11-25");
  assert.equal(rows.e_modern.state, "error");
  assert.match(rows.e_modern.error, /did not answer server\/discover as a 2026-07-28 server/);
  assert.match(rows.e_modern.error, /never falls back to initialize/);
  const call = await w.mcpx(["call", "e_prefer.echo", '{"message":"hi"}']);
  assert.equal(call.code, 0, call.stderr);
  assert.match(call.stdout, /Echo: hi/);
});

Deno.test("under the default mode, a 2026-07-28 server that answers initialize with HTTP 400 -32020 is reached in its era, at once and by URL", async () => {
  const [deno, ...args] = fixtureArgv("modern_only", [
    "--http",
    String(freePort()),
    "--no-header-initialize",
    "--header-tools",
  ]);
  const http = background(deno, args, { env: Deno.env.toObject() });
  await using _http = http;
  await eventually(() => /listening on/.test(http.output()) || http.exited(), 30_000);
  const port = /listening on (\d+)/.exec(http.output())?.[1];
  assert.ok(port, http.output());
  const url = `http://127.0.0.1:${port}/mcp`;
  await using w = await world();
  await w.writeConfig({ mcpServers: { strict: { url } } });
  const rows = await lsRows(w);
  assert.equal(rows.strict.state, "ready", JSON.stringify(rows.strict));
  assert.equal(rows.strict.protocol, "2026-07-28");
  const call = await w.mcpx(["call", "strict.revision", "{}"]);
  assert.equal(call.code, 0, call.stderr);
  assert.equal(call.stdout.trim(), "2026-07-28");
  // SEP-2243: a tool whose x-mcp-header declaration is invalid is left out, with the reason, and
  // its call refused before anything is sent; a valid one is called with its header.
  assert.equal(rows.strict.tools, 3, JSON.stringify(rows.strict));
  const ok = await w.mcpx(["call", "strict.header_ok", '{"region":"eu"}']);
  assert.equal(ok.stdout.trim(), "region=eu", ok.stderr);
  const bad = await w.mcpx(["call", "strict.header_bad", '{"region":"eu"}']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /header_bad.*x-mcp-header declaration is invalid.*non-empty/s);
  const types = await w.mcpx(["types", "strict"]);
  assert.doesNotMatch(types.stdout, /header_bad\(/);
  // A URL given on the command line, with no configuration: the same.
  const direct = await w.mcpx(["call", url, "echo", '{"text":"by url"}']);
  assert.equal(direct.code, 0, direct.stderr);
  assert.equal(direct.stdout.trim(), "by url");
  // Under legacy, the refusal is said as the server said it.
  await w.writeConfig({ mcpServers: { strict: { url, mcpx: { protocol: "legacy" } } } });
  const legacy = await w.mcpx(["call", "strict.echo", '{"text":"x"}']);
  assert.equal(legacy.code, 1);
  assert.match(legacy.stderr, /400/, legacy.stderr);
});

Deno.test("under the default mode, a dual-era server over Streamable HTTP is spoken to in 2026-07-28, over stdio in 2025", async () => {
  const [deno, ...args] = fixtureArgv("dual", ["--http", String(freePort())]);
  const http = background(deno, args, { env: Deno.env.toObject() });
  await using _http = http;
  await eventually(() => /listening on/.test(http.output()) || http.exited(), 30_000);
  const port = /listening on (\d+)/.exec(http.output())?.[1];
  assert.ok(port, http.output());
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      over_http: { url: `http://127.0.0.1:${port}/mcp` },
      over_stdio: fixtureServer({ fixture: "dual" }),
    },
  });
  const rows = await lsRows(w);
  assert.equal(rows.over_http.protocol, "2026-07-28", JSON.stringify(rows.over_http));
  assert.equal(rows.over_stdio.protocol, "2025-11-25", JSON.stringify(rows.over_stdio));
  const call = await w.mcpx(["call", "over_http.revision", "{}"]);
  assert.equal(call.stdout.trim(), "2026-07-28", call.stderr);
});
