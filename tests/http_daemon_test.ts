/**
 * The daemon's /v1 API over TCP (`mcpx daemon --address A --port P`), reached
 * by a real curl process and by the CLI through `MCPX_DAEMON_ENDPOINT`
 * (spec 000, "One daemon, many clients"; decision 0046).
 *
 * @module
 */

import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  backgroundMcpx,
  eventually,
  freePort,
  stdioServer,
  type World,
  world,
} from "./_helpers.ts";

const TOKEN = "s3cret-token-for-tests-0123456789";

/** Runs curl; answers the HTTP status and the body. */
async function curl(args: string[]): Promise<{ status: number; body: string }> {
  const out = await new Deno.Command("curl", {
    args: ["-sS", "--max-time", "300", "-o", "-", "-w", "\n%{http_code}", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const cut = text.lastIndexOf("\n");
  return { status: Number(text.slice(cut + 1)), body: text.slice(0, cut) };
}

/** The sockets in a world's state directory (a daemon it started would leave one). */
function socketsOf(w: World): string[] {
  try {
    return [...Deno.readDirSync(`${w.dir}/.state/mcpx/sockets`)].map((e) => e.name);
  } catch {
    return [];
  }
}

Deno.test({
  name: "mcpx daemon --address 0.0.0.0 --port: curl calls a tool with the bearer token, gets " +
    "401 without it and 403 for a rebinding Host; the CLI reaches it through MCPX_DAEMON_ENDPOINT",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using w = await world();
    await w.writeConfig({ mcpServers: { everything: stdioServer("everything") } });
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    await using daemon = backgroundMcpx(
      w,
      ["daemon", "--address", "0.0.0.0", "--port", `${port}`],
      {
        env: { MCPX_TRANSPORT_BEARER_TOKEN: TOKEN },
      },
    );
    const auth = ["-H", `Authorization: Bearer ${TOKEN}`];
    const json = ["-H", "content-type: application/json"];
    assert.ok(
      await eventually(
        async () =>
          (await curl([...auth, ...json, "-X", "POST", `${base}/v1/health`])).status === 200,
        60_000,
      ),
      `the daemon did not answer on TCP:\n${daemon.output()}`,
    );
    // Said once, at the start.
    assert.equal(daemon.output().match(/beyond loopback/g)?.length, 1, daemon.output());

    const call = [
      "-X",
      "POST",
      "-H",
      "content-type: application/json",
      "--data",
      '{"message":"over tcp"}',
      `${base}/v1/call/everything/echo`,
    ];
    const ok = await curl([...auth, "-H", "X-Mcpx-Session: curl-1", ...call]);
    assert.equal(ok.status, 200, ok.body);
    const answer = JSON.parse(ok.body);
    assert.equal(answer.ok, true, ok.body);
    assert.match(JSON.stringify(answer.result.content), /over tcp/);
    // A tool that does not exist is a 404 to whatever reads the status first (curl -f).
    const missing = await curl([
      ...auth,
      ...call.slice(0, -1),
      `${base}/v1/call/nosuch/echo`,
    ]);
    assert.equal(missing.status, 404, missing.body);
    assert.equal(JSON.parse(missing.body).error.code, "not-found");

    const bare = await curl(call);
    assert.equal(bare.status, 401, bare.body);
    assert.equal(JSON.parse(bare.body).error.code, "unauthorized");
    assert.match(JSON.parse(bare.body).error.message, /transport\.bearerToken/);
    const wrong = await curl(["-H", "Authorization: Bearer not-it", ...call]);
    assert.equal(wrong.status, 401, wrong.body);

    const rebound = await curl([...auth, "-H", `Host: attacker.example:${port}`, ...call]);
    assert.equal(rebound.status, 403, rebound.body);
    assert.equal(JSON.parse(rebound.body).error.code, "forbidden-host");
    const page = await curl([...auth, "-H", "Origin: http://attacker.example", ...call]);
    assert.equal(page.status, 403, page.body);
    // Issue 24: what any page a browser opens from another localhost port can send, a simple
    // cross-site POST (text/plain, so no preflight), ran the tool with 200. Refused, unrun.
    const sameSite = await curl([
      ...auth,
      "-H",
      "Origin: http://localhost:3000",
      "-H",
      "Content-Type: text/plain",
      "--data",
      '{"message":"cross-site"}',
      "-X",
      "POST",
      `${base}/v1/call/everything/echo`,
    ]);
    assert.equal(sameSite.status, 403, sameSite.body);
    assert.equal(JSON.parse(sameSite.body).error.code, "forbidden-origin");
    assert.match(JSON.parse(sameSite.body).error.message, /transport\.allowedOrigins/);
    assert.match(JSON.parse(sameSite.body).error.message, /nothing was run/);
    // Without an Origin but not JSON: 415, unrun too.
    const plain = await curl([
      ...auth,
      ...call.slice(0, 2),
      "-H",
      "Content-Type: text/plain",
      ...call.slice(4),
    ]);
    assert.equal(plain.status, 415, plain.body);

    const doc = await curl([...auth, `${base}/v1/openapi.json`]);
    assert.equal(doc.status, 200, doc.body.slice(0, 500));
    const verdict = await new Validator().validate(JSON.parse(doc.body));
    assert.ok(verdict.valid, JSON.stringify(verdict.errors));

    // Another world (no configuration, its own state directory) names the daemon as its endpoint.
    await using other = await world();
    const remote = { MCPX_DAEMON_ENDPOINT: base, MCPX_TRANSPORT_BEARER_TOKEN: TOKEN };
    const ls = await other.json<{ namespaces: { namespace: string }[] }>(["ls"], { env: remote });
    assert.deepEqual(ls.namespaces.map((n) => n.namespace), ["everything"]);
    const called = await other.mcpx(["call", "everything.echo", '{"message":"via endpoint"}'], {
      env: remote,
    });
    assert.equal(called.code, 0, called.stderr);
    assert.match(called.stdout, /via endpoint/);
    assert.deepEqual(socketsOf(other), [], "the CLI started a daemon of its own");
    // status and elicit ask the endpoint too, not this machine's files and store.
    const status = await other.json<{ daemon: boolean }>(["status"], { env: remote });
    assert.equal(status.daemon, true);
    const questions = await other.json<{ questions: unknown[] }>(["elicit", "list"], {
      env: remote,
    });
    assert.deepEqual(questions.questions, []);

    // types, catalog and schema read the endpoint's schemas, not this machine's (empty) cache,
    // and each schema form is one its consumer accepts (decision 0051).
    const types = await other.json<{ namespaces: { tools: { function: string }[] }[] }>(
      ["types", "everything.echo"],
      { env: remote },
    );
    assert.deepEqual(types.namespaces[0].tools.map((t) => t.function), ["everything.echo"]);
    const catalog = await other.json<{ total: number; text: string }>(["catalog"], { env: remote });
    assert.ok(catalog.total > 5 && catalog.text.includes("everything"), catalog.text);
    const openapi = await other.json(["schema", "everything", "--format", "openapi"], {
      env: remote,
    });
    const upstream = await new Validator().validate(openapi);
    assert.ok(upstream.valid, JSON.stringify(upstream.errors));
    assert.ok("/v1/call/everything/echo" in openapi.paths);
    const jsonSchema = await other.json(["schema", "--format", "json-schema"], { env: remote });
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(jsonSchema, "catalog");
    assert.ok(ajv.validate("catalog#/$defs/everything.echo", { message: "hi" }));
    assert.equal(ajv.validate("catalog#/$defs/everything.echo", {}), false, "message is required");
    const mcp = await other.json<{ tools: { name: string }[] }>(
      ["schema", "everything.echo", "--format", "mcp"],
      { env: remote },
    );
    assert.deepEqual(mcp.tools.map((t) => t.name), ["everything.echo"]);
    const ts = await other.mcpx(["schema", "everything.echo"], { env: remote });
    assert.equal(ts.code, 0, ts.stderr);
    assert.match(ts.stdout, /echo\(/);

    // A script's client reaches the same daemon over TCP (no socket handed to it).
    const script = await w.mcpx([
      "exec",
      'const r = await everything.echo({ message: "from script" }); ' +
      '[Deno.env.get("MCPX_SOCKET"), Deno.env.get("MCPX_ENDPOINT"), JSON.stringify(r)]',
    ], { env: remote });
    assert.equal(script.code, 0, script.stderr);
    assert.match(script.stdout, /from script/);
    assert.ok(script.stdout.includes(base), script.stdout);
    assert.deepEqual(socketsOf(w).length, 1, "only the foreground daemon's socket");

    // Without the token, the endpoint's 401 is the CLI's error.
    const refused = await other.mcpx(["call", "everything.echo", '{"message":"x"}'], {
      env: { MCPX_DAEMON_ENDPOINT: base },
    });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Bearer/);
  },
});

Deno.test({
  name: "MCPX_DAEMON_ENDPOINT that nothing answers: ls and call fail naming the endpoint and " +
    "the setting, and no daemon is started",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using w = await world();
    await w.writeConfig({ mcpServers: { everything: stdioServer("everything") } });
    const endpoint = `http://127.0.0.1:${freePort()}`;
    for (
      const args of [["ls"], ["call", "everything.echo", '{"message":"x"}'], ["status"], [
        "elicit",
        "list",
      ]]
    ) {
      const r = await w.mcpx(args, { env: { MCPX_DAEMON_ENDPOINT: endpoint } });
      assert.equal(r.code, 1, `${args[0]}: ${r.stdout}${r.stderr}`);
      assert.ok(r.stderr.includes(endpoint), r.stderr);
      assert.match(r.stderr, /daemon\.endpoint/);
      assert.match(r.stderr, /MCPX_DAEMON_ENDPOINT/);
    }
    // A socket path in a shared sticky directory (/tmp) that nothing listens on: no daemon
    // answers there, said as such (not a fix for /tmp's mode).
    const sock = `unix:///tmp/mcpx-absent-${crypto.randomUUID()}.sock`;
    const r = await w.mcpx(["call", "everything.echo", '{"message":"x"}'], {
      env: { MCPX_DAEMON_ENDPOINT: sock },
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /no mcpx daemon answers at unix:\/\/\/tmp\/mcpx-absent/);
    assert.doesNotMatch(r.stderr, /chmod/);
    assert.deepEqual(socketsOf(w), [], "a local daemon was started");
    assert.deepEqual(w.processes(), []);
  },
});

Deno.test({
  name: "mcpx daemon beyond loopback without a bearer token does not start, naming the setting",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using w = await world();
    await w.writeConfig({ mcpServers: {} });
    const r = await w.mcpx(["daemon", "--address", "0.0.0.0", "--port", `${freePort()}`]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /transport\.bearerToken/);
    assert.deepEqual(socketsOf(w), []);
  },
});

Deno.test({
  name: "mcpx daemon --port on loopback needs no token but still refuses a rebinding Host; " +
    "mcpx openapi prints the document it serves",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using w = await world();
    await w.writeConfig({ mcpServers: {} });
    const port = freePort();
    await using daemon = backgroundMcpx(w, ["daemon", "--port", `${port}`]);
    const health = [
      "-X",
      "POST",
      "-H",
      "content-type: application/json",
      `http://127.0.0.1:${port}/v1/health`,
    ];
    assert.ok(
      await eventually(async () => (await curl(health)).status === 200, 60_000),
      `the daemon did not answer on TCP:\n${daemon.output()}`,
    );
    assert.doesNotMatch(daemon.output(), /beyond loopback/);
    const rebound = await curl(["-H", `Host: attacker.example:${port}`, ...health]);
    assert.equal(rebound.status, 403, rebound.body);
    const served = await curl([`http://localhost:${port}/v1/openapi.json`]);
    assert.equal(served.status, 200);
    const printed = await w.mcpx(["openapi"]);
    assert.equal(printed.code, 0, printed.stderr);
    assert.deepEqual(JSON.parse(printed.stdout), JSON.parse(served.body));
    const verdict = await new Validator().validate(JSON.parse(printed.stdout));
    assert.ok(verdict.valid, JSON.stringify(verdict.errors));
  },
});
