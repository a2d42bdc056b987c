/**
 * `mcpx serve` (decision 0044) driven by the SDK's own client, in both
 * protocol eras, over stdio and Streamable HTTP: its tool list is the op
 * table's serve tools, `mcpx_call` and `mcpx_exec` reach server-everything
 * through the daemon, one client session leases as one mcpx session, and a
 * rebinding Host header is refused.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { OPS } from "../ops/table.ts";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  backgroundMcpx,
  eventually,
  fixtureServer,
  freePort,
  mcpxArgv,
  stdioServer,
  type World,
  world,
} from "./_helpers.ts";
import { serveTools } from "../cli/serve/serve_tools.ts";
import * as z from "zod";

type Era = "legacy" | "modern";

function client(era: Era): Client {
  return new Client(
    { name: "serve-test", version: "0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
}

async function stdioClient(
  w: World,
  era: Era,
  flags: string[] = [],
): Promise<Client & AsyncDisposable> {
  const [command, ...args] = mcpxArgv(["serve", ...flags]);
  const c = client(era);
  await c.connect(
    new StdioClientTransport({ command, args, env: w.env, cwd: w.dir, stderr: "pipe" }),
  );
  return Object.assign(c, { [Symbol.asyncDispose]: () => c.close() });
}

const text = (r: unknown) =>
  ((r as { content: { type: string; text?: string }[] }).content[0]?.text) ?? "";

/** The text of what the upstream tool answered: mcpx_call answers with its result as is. */
const upstream = text;

/** Every text item of a result, one per line: a tool may answer in several. */
const texts = (r: unknown) =>
  (r as { content: { type: string; text?: string }[] }).content.map((c) => c.text ?? "")
    .join("\n");

async function exercise(c: Client, t: Deno.TestContext, era: Era) {
  await t.step(`${era}: tools/list is the op table's serve tools`, async () => {
    assert.equal(c.getProtocolEra?.() ?? "legacy", era);
    const { tools } = await c.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), serveTools().map((tool) => tool.name));
    const call = tools.find((tool) => tool.name === "mcpx_call")!;
    assert.equal(call.annotations?.readOnlyHint ?? false, false);
    assert.equal(tools.find((tool) => tool.name === "mcpx_ls")!.annotations?.readOnlyHint, true);
    assert.equal((call.inputSchema.properties as any).arguments.type, "object");
    if (era === "legacy") assert.equal(c.getServerCapabilities()?.tools?.listChanged, false);
  });
  await t.step(`${era}: mcpx_call reaches server-everything's echo`, async () => {
    const r = await c.callTool({
      name: "mcpx_call",
      arguments: { target: "everything.echo", arguments: { message: `hi ${era}` } },
    });
    assert.notEqual(r.isError, true, JSON.stringify(r));
    // The tool's own result, not mcpx's JSON of it (decision 0076).
    assert.deepEqual(r.content, [{ type: "text", text: `Echo: hi ${era}` }]);
    assert.equal(r.structuredContent, undefined);
  });
  await t.step(`${era}: mcpx_exec runs a script that calls server-everything`, async () => {
    const r = await c.callTool({
      name: "mcpx_exec",
      arguments: {
        code: 'console.log("printed"); (await everything.get_sum({ a: 2, b: 40 }))',
      },
    });
    assert.notEqual(r.isError, true, JSON.stringify(r));
    const envelope = r.structuredContent as { ok: boolean; stdout: string; result: unknown };
    assert.equal(envelope.ok, true);
    assert.match(envelope.stdout + JSON.stringify(envelope.result), /42/);
  });
  await t.step(`${era}: mcpx_search and mcpx_types answer from the schema cache`, async () => {
    const found = await c.callTool({ name: "mcpx_search", arguments: { words: ["echo"] } });
    assert.notEqual(found.isError, true, JSON.stringify(found));
    assert.match(text(found), /everything\.echo/);
    const types = await c.callTool({
      name: "mcpx_types",
      arguments: { targets: ["everything.echo"] },
    });
    assert.notEqual(types.isError, true, JSON.stringify(types));
    assert.match(text(types), /echo/);
  });
  await t.step(`${era}: signatures as resources, completed from the schema cache`, async () => {
    const { resources } = await c.listResources();
    assert.ok(
      resources.some((r) => r.uri === "mcpx://types/everything"),
      JSON.stringify(resources),
    );
    const ns = await c.complete({
      ref: { type: "ref/resource", uri: "mcpx://types/{namespace}/{tool}" },
      argument: { name: "namespace", value: "ev" },
    });
    assert.deepEqual(ns.completion.values, ["everything"]);
    const tool = await c.complete({
      ref: { type: "ref/resource", uri: "mcpx://types/{namespace}/{tool}" },
      argument: { name: "tool", value: "ec" },
      context: { arguments: { namespace: "everything" } },
    });
    assert.deepEqual(tool.completion.values, ["echo"]);
    const read = await c.readResource({ uri: "mcpx://types/everything/echo" });
    assert.match(JSON.stringify(read.contents), /echo/);
  });
  await t.step(`${era}: a bad call is a tool error naming the problem`, async () => {
    const r = await c.callTool({ name: "mcpx_call", arguments: { target: "nonsense" } });
    assert.equal(r.isError, true);
    assert.match(text(r), /namespace/);
  });
}

Deno.test("mcpx serve over stdio: both eras list and call its tools", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything") } });
  for (const era of ["legacy", "modern"] as const) {
    await using c = await stdioClient(w, era);
    await exercise(c, t, era);
  }
});

Deno.test("mcpx serve --tools all lists every operation but three, and a non-core tool answers its document", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything") } });
  await using c = await stdioClient(w, "legacy", ["--tools", "all"]);
  const { tools } = await c.listTools();
  assert.deepEqual(tools.map((t) => t.name), serveTools(OPS, "all").map((t) => t.name));
  for (const name of ["mcpx_doctor", "mcpx_session", "mcpx_log", "mcpx_daemons"]) {
    assert.ok(tools.some((t) => t.name === name), name);
  }
  assert.ok(!tools.some((t) => t.name === "mcpx_serve" || t.name === "mcpx_daemon"));
  const made = await c.callTool({ name: "mcpx_session", arguments: { action: "new" } });
  assert.notEqual(made.isError, true, text(made));
  const { name } = made.structuredContent as { name: string };
  const listed = await c.callTool({ name: "mcpx_session", arguments: { action: "ls" } });
  const { sessions } = listed.structuredContent as { sessions: { name: string }[] };
  assert.ok(sessions.some((s) => s.name === name), text(listed));
  // A name that is no operation is refused before serve answers anything.
  const bad = await w.mcpx(["serve", "--tools", "sesion"]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--tools: "sesion" is no operation serve offers.*session/);
});

Deno.test("mcpx serve over stdio: one connection's calls lease as one session", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { mem: fixtureServer({ fixture: "stateful", mcpx: { scope: "session" } }) },
  });
  const remember = (c: Client, value: string) =>
    c.callTool({
      name: "mcpx_call",
      arguments: { target: "mem.remember", arguments: { text: value } },
    });
  {
    await using c = await stdioClient(w, "legacy");
    assert.equal(upstream(await remember(c, "one")).trim(), "");
    assert.equal(upstream(await remember(c, "two")).trim(), "one");
  }
  // Another connection is another session: a process of its own.
  await using c = await stdioClient(w, "modern");
  assert.equal(upstream(await remember(c, "three")).trim(), "");
  // A 2026-07-28 request may name its session in _meta.
  const named = (value: string) =>
    c.callTool({
      name: "mcpx_call",
      arguments: { target: "mem.remember", arguments: { text: value } },
      _meta: { "mcpx/session": "shared" },
    });
  assert.equal(upstream(await named("a")).trim(), "");
  assert.equal(upstream(await named("b")).trim(), "a");
});

Deno.test("mcpx serve --http: both eras over Streamable HTTP; rebinding refused", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything") } });
  const port = freePort();
  await using serve = backgroundMcpx(w, ["serve", "--http", "--port", String(port)]);
  assert.ok(await eventually(() => /listening on/.test(serve.output()), 60_000), serve.output());
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  for (const era of ["legacy", "modern"] as const) {
    const c = client(era);
    await c.connect(new StreamableHTTPClientTransport(url));
    try {
      await exercise(c, t, era);
    } finally {
      await c.close();
    }
  }
  await t.step("a rebinding Host header is refused", async () => {
    assert.equal(await rawStatus(port, { host: `evil.example:${port}` }), 403);
  });
  await t.step("a foreign Origin is refused", async () => {
    assert.equal(
      await rawStatus(port, { host: `127.0.0.1:${port}`, origin: "http://evil.example" }),
      403,
    );
  });
  await t.step("a page on another localhost port is refused (issue 24)", async () => {
    assert.equal(
      await rawStatus(port, { host: `127.0.0.1:${port}`, origin: "http://localhost:3000" }),
      403,
    );
  });
  await t.step("an unsupported 2026-era revision gets -32022 with the supported ones", async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2099-01-01",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "server/discover",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2099-01-01",
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    const answer = await response.json();
    assert.equal(answer.error?.code, -32022, JSON.stringify(answer));
    assert.ok(answer.error.data.supported.includes("2026-07-28"), JSON.stringify(answer));
  });
  await t.step("the loopback Host and no Origin are served", async () => {
    assert.equal(await rawStatus(port, { host: `localhost:${port}` }), 200);
  });
});

Deno.test("mcpx serve --http beyond loopback needs transport.bearerToken, and then every request carries it", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything") } });
  const r = await w.mcpx(["serve", "--http", "--address", "0.0.0.0", "--port", "0"]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--address 0\.0\.0\.0 is beyond loopback.*transport\.bearerToken/);
  const port = freePort();
  const token = "serve-test-token-0123456789";
  await using serve = backgroundMcpx(w, [
    "serve",
    "--http",
    "--address",
    "0.0.0.0",
    "--port",
    String(port),
  ], {
    env: { MCPX_TRANSPORT_BEARER_TOKEN: token },
  });
  assert.ok(await eventually(() => /listening on/.test(serve.output()), 60_000), serve.output());
  assert.match(serve.output(), /warning: mcpx serve listens on 0\.0\.0\.0, beyond loopback/);
  assert.equal(await rawStatus(port, { host: `127.0.0.1:${port}` }), 401);
  assert.equal(
    await rawStatus(port, { host: `127.0.0.1:${port}`, authorization: "Bearer wrong" }),
    401,
  );
  assert.equal(
    await rawStatus(port, { host: `evil.example:${port}`, authorization: `Bearer ${token}` }),
    403,
  );
  const c = client("legacy");
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const { tools } = await c.listTools();
    assert.ok(tools.some((tool) => tool.name === "mcpx_call"));
  } finally {
    await c.close();
  }
});

async function rawStatus(port: number, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  });
  const head = Object.entries({
    ...headers,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "content-length": String(new TextEncoder().encode(body).length),
    connection: "close",
  }).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(`POST /mcp HTTP/1.1\r\n${head}\r\n${body}`));
    const buffer = new Uint8Array(64);
    const n = await conn.read(buffer);
    const line = new TextDecoder().decode(buffer.subarray(0, n ?? 0));
    return Number(line.split(" ")[1]);
  } finally {
    conn.close();
  }
}

Deno.test("mcpx serve --http: a legacy client session leases as one session; a 2026 request names one or is its own", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { mem: fixtureServer({ fixture: "stateful", mcpx: { scope: "session" } }) },
  });
  const port = freePort();
  await using serve = backgroundMcpx(w, ["serve", "--http", "--port", String(port)]);
  assert.ok(await eventually(() => /listening on/.test(serve.output()), 60_000), serve.output());
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const remember = (c: Client, value: string, meta?: Record<string, unknown>) =>
    c.callTool({
      name: "mcpx_call",
      arguments: { target: "mem.remember", arguments: { text: value } },
      ...(meta ? { _meta: meta } : {}),
    }).then(upstream);
  const legacy = client("legacy");
  await legacy.connect(new StreamableHTTPClientTransport(url));
  try {
    assert.equal((await remember(legacy, "one")).trim(), "");
    assert.equal((await remember(legacy, "two")).trim(), "one");
  } finally {
    await legacy.close();
  }
  const modern = client("modern");
  await modern.connect(new StreamableHTTPClientTransport(url));
  try {
    assert.equal((await remember(modern, "x")).trim(), "");
    assert.equal(
      (await remember(modern, "y")).trim(),
      "",
      "a request naming no session is its own caller",
    );
    assert.equal(serve.output().match(/named no session/g)?.length, 1, serve.output());
    assert.equal((await remember(modern, "a", { "mcpx/session": "s1" })).trim(), "");
    assert.equal((await remember(modern, "b", { "mcpx/session": "s1" })).trim(), "a");
  } finally {
    await modern.close();
  }
});

Deno.test("mcpx serve: questions reach a client of either era that declared them; a legacy client's call runs as a task", async () => {
  await using w = await world();
  w.env.MCPX_ELICIT_TIMEOUT = "60s";
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  const [command, ...args] = mcpxArgv(["serve"]);
  const asked: string[] = [];
  const answering = (era: Era) => {
    const c = new Client(
      { name: "asked", version: "0" },
      {
        capabilities: { elicitation: { form: {} }, sampling: {} },
        ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
      },
    );
    c.setRequestHandler("elicitation/create", (request) => {
      asked.push(`${era} ${request.method}`);
      return { action: "accept", content: { name: "Ada Lovelace", check: true } } as never;
    });
    c.setRequestHandler("sampling/createMessage", (request) => {
      asked.push(`${era} ${request.method}`);
      return {
        role: "assistant",
        content: { type: "text", text: "hello from the host" },
        model: "host-model",
      } as never;
    });
    return c;
  };
  for (const era of ["legacy", "modern"] as const) {
    // A 2025-era client is asked on the call's stream; a 2026-07-28 one by input_required,
    // which its SDK answers and retries.
    const c = answering(era);
    await c.connect(new StdioClientTransport({ command, args, env: w.env, cwd: w.dir }));
    try {
      const elicited = await c.callTool({
        name: "mcpx_call",
        arguments: { target: "everything.trigger_elicitation_request", arguments: {} },
      });
      assert.notEqual(elicited.isError, true, JSON.stringify(elicited));
      assert.match(texts(elicited), /Ada Lovelace/);
      const sampled = await c.callTool({
        name: "mcpx_call",
        arguments: {
          target: "everything.trigger_sampling_request",
          arguments: { prompt: "say hi", maxTokens: 20 },
        },
      });
      assert.notEqual(sampled.isError, true, JSON.stringify(sampled));
      assert.match(texts(sampled), /hello from the host/);
      if (era === "legacy") {
        // The same call as a task: a handle at once, then tasks/get and tasks/result.
        const send = (method: string, params: Record<string, unknown>) =>
          // deno-lint-ignore no-explicit-any
          (c.request as any)({ method, params }, z.looseObject({})) as Promise<any>;
        const made = await send("tools/call", {
          name: "mcpx_call",
          arguments: { target: "everything.echo", arguments: { message: "as a task" } },
          task: { ttl: 60_000 },
        });
        assert.equal(made.task.status, "working", JSON.stringify(made));
        const result = await send("tasks/result", { taskId: made.task.taskId });
        assert.match(texts(result), /as a task/);
        assert.equal((await send("tasks/get", { taskId: made.task.taskId })).status, "completed");
        // A question inside a task goes out on the client's tasks/result.
        const asking = await send("tools/call", {
          name: "mcpx_call",
          arguments: { target: "everything.trigger_elicitation_request", arguments: {} },
          task: { ttl: 60_000 },
        });
        const answered = await send("tasks/result", { taskId: asking.task.taskId });
        assert.match(texts(answered), /Ada Lovelace/, JSON.stringify(answered));
      }
    } finally {
      await c.close();
    }
  }
  assert.deepEqual(asked, [
    "legacy elicitation/create",
    "legacy sampling/createMessage",
    "legacy elicitation/create",
    "modern elicitation/create",
    "modern sampling/createMessage",
  ]);
  // A 2026-07-28 client that declared neither gets the question and answers with mcpx_elicit.
  await using modern = await stdioClient(w, "modern");
  const waiting = await modern.callTool({
    name: "mcpx_call",
    arguments: { target: "everything.trigger_elicitation_request", arguments: {} },
  });
  assert.equal(waiting.isError, true);
  const id = (waiting.structuredContent as { question: { id: string } }).question.id;
  const answered = await modern.callTool({
    name: "mcpx_elicit",
    arguments: { action: "answer", id, words: ["name=Grace Hopper", "check=true"], wait: true },
  });
  assert.notEqual(answered.isError, true, JSON.stringify(answered));
  assert.match(texts(answered), /Grace Hopper/);
});

Deno.test("mcpx serve --http on a port in use, or an address that is no address, says which", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (taken.addr as Deno.NetAddr).port;
    const r = await w.mcpx(["serve", "--http", "--port", String(port)]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`127\\.0\\.0\\.1:${port} is in use.*--port 0`));
    assert.doesNotMatch(r.stderr, /bug in mcpx/);
  } finally {
    taken.close();
  }
  const bad = await w.mcpx(["serve", "--http", "--address", "not-an-ip", "--port", "0"]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--address takes an IP address .*got "not-an-ip"/);
});
