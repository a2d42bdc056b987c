/**
 * `servePassthrough()` (cli/serve/serve_passthrough.ts) over stdio, driven by the
 * SDK's client, with our conformance fixture as the one upstream: its tools,
 * prompts, resources and completions come through unprefixed, a call goes
 * through the daemon, the upstream's question reaches this client, and so do
 * its log messages during a call (at the level the client set).
 */

import assert from "node:assert/strict";
import { Client, CLIENT_CAPABILITIES_META_KEY } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { fixtureServer, mcpxArgv, world } from "./_helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** An SDK client of `mcpx serve --passthrough <namespace>` over stdio, in `w`'s directory. */
function passthroughClient(w: { dir: string; env: Record<string, string> }, namespace: string) {
  return new StdioClientTransport({
    command: Deno.execPath(),
    args: mcpxArgv(["serve", "--passthrough", namespace]).slice(1),
    cwd: w.dir,
    env: w.env,
    stderr: "inherit",
  });
}

Deno.test("servePassthrough leases as one caller per stdio connection: a session-scoped server is kept", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { kept: fixtureServer({ fixture: "stateful", mcpx: { scope: "session" } }) },
  });
  const client = new Client({ name: "passthrough-test", version: "1.0.0" });
  await client.connect(passthroughClient(w, "kept"));
  try {
    const pid = async () =>
      ((await client.callTool({ name: "whoami", arguments: {} })).content as { text: string }[])[0]
        .text;
    const first = await pid();
    assert.equal(await pid(), first, "both calls reached the connection's one instance");
  } finally {
    await client.close();
  }
});

Deno.test("servePassthrough serves one upstream's tools, prompts, resources and questions unprefixed", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      fixture: {
        command: Deno.execPath(),
        args: [
          "run",
          "-A",
          "--config",
          `${ROOT}deno.json`,
          `${ROOT}tests/fixtures/servers/conformance_fixture.ts`,
        ],
      },
    },
  });
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: mcpxArgv(["serve", "--passthrough", "fixture"]).slice(1),
    cwd: w.dir,
    env: w.env,
    stderr: "inherit",
  });
  const client = new Client({ name: "passthrough-test", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
  });
  const asked: string[] = [];
  client.setRequestHandler("elicitation/create", (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { username: "ada", email: "ada@example.com" } };
  });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes("test_simple_text"), names.join(", "));
    assert.ok(!names.some((n) => n.startsWith("fixture")), "names are the upstream's own");
    const schema = tools.find((t) => t.name === "json_schema_2020_12_tool")?.inputSchema;
    assert.equal(schema?.$schema, "https://json-schema.org/draft/2020-12/schema");

    const simple = await client.callTool({ name: "test_simple_text", arguments: {} });
    assert.deepEqual(simple.content, [{
      type: "text",
      text: "This is a simple text response for testing.",
    }]);

    const elicited = await client.callTool({
      name: "test_elicitation",
      arguments: { message: "Who are you?" },
    });
    assert.deepEqual(asked, ["Who are you?"]);
    assert.match(
      (elicited.content as { text: string }[])[0].text,
      /action=accept, content=\{"username":"ada","email":"ada@example.com"\}/,
    );

    const prompt = await client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "hello", arg2: "world" },
    });
    assert.deepEqual(prompt.messages[0].content, {
      type: "text",
      text: "Prompt with arguments: arg1='hello', arg2='world'",
    });
    const read = await client.readResource({ uri: "test://static-text" });
    assert.equal(
      (read.contents[0] as { text: string }).text,
      "This is the content of the static text resource.",
    );
    const templates = await client.listResourceTemplates();
    assert.deepEqual(templates.resourceTemplates.map((t) => t.uriTemplate), [
      "test://template/{id}/data",
    ]);
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "par" },
    });
    assert.deepEqual(completion.completion.values, ["paris", "park", "party"]);

    // The upstream's log messages during a call reach this client, before the result, at its level.
    assert.ok(client.getServerCapabilities()?.logging, "logging declared");
    const logged: { level: string; data: unknown }[] = [];
    client.setNotificationHandler("notifications/message", (n) => {
      logged.push({ level: n.params.level, data: n.params.data });
    });
    await client.setLoggingLevel("info");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    assert.deepEqual(logged.map((m) => m.data), [
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    await client.setLoggingLevel("error");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    assert.equal(logged.length, 3, "info messages are below the client's level now");
  } finally {
    await client.close();
  }
});

Deno.test("servePassthrough relays a 2026-07-28 upstream's input_required as written: keys, roots, capabilities, prompts", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      // mcpx speaks 2026-07-28 to the upstream, so its questions come as input_required results.
      fixture: {
        command: Deno.execPath(),
        args: [
          "run",
          "-A",
          "--config",
          `${ROOT}deno.json`,
          `${ROOT}tests/fixtures/servers/conformance_fixture.ts`,
        ],
        mcpx: { protocol: "modern" },
      },
    },
  });
  // A 2026-07-28 client; it declares sampling on no request but the first.
  const client = new Client({ name: "passthrough-test", version: "1.0.0" }, {
    capabilities: { roots: {}, elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  const all = { [CLIENT_CAPABILITIES_META_KEY]: { roots: {}, elicitation: {}, sampling: {} } };
  client.setRequestHandler("roots/list", () => ({
    roots: [{ uri: "file:///client/root", name: "root" }],
  }));
  client.setRequestHandler("elicitation/create", () => ({
    action: "accept",
    content: { context: "from the client" },
  }));
  await client.connect(passthroughClient(w, "fixture"));
  try {
    const raw = (name: string, _meta?: Record<string, unknown>) =>
      client.callTool({ name, arguments: {}, ...(_meta ? { _meta } : {}) }, {
        allowInputRequired: true,
      }) as Promise<
        { resultType?: string; inputRequests?: Record<string, { method: string }> }
      >;
    // The upstream's own keys, all three at once, roots among them.
    const multiple = await raw("test_input_required_result_multiple_inputs", all);
    assert.equal(multiple.resultType, "input_required");
    assert.deepEqual(Object.keys(multiple.inputRequests ?? {}).sort(), [
      "client_roots",
      "greeting",
      "user_name",
    ]);
    assert.equal(multiple.inputRequests?.client_roots.method, "roots/list");
    // The upstream sees this client's capabilities: no sampling request.
    const asked = await raw("test_input_required_result_capabilities");
    assert.deepEqual(Object.keys(asked.inputRequests ?? {}).sort(), ["ask", "roots"]);
    // Roots come from this client, not from mcpx's configuration.
    const roots = await client.callTool({ name: "test_input_required_result_list_roots" });
    assert.deepEqual(roots.content, [{ type: "text", text: "Roots: file:///client/root" }]);
    // A question during prompts/get reaches this client too.
    const prompt = await client.getPrompt({ name: "test_input_required_result_prompt" });
    assert.deepEqual(prompt.messages[0].content, {
      type: "text",
      text: "Context: from the client",
    });
    // The upstream's refusal keeps its code: sampling was not declared (-32021).
    await assert.rejects(
      client.callTool({ name: "test_missing_capability", arguments: {} }),
      (error: { code?: number }) => error.code === -32021,
    );
  } finally {
    await client.close();
  }
});

Deno.test("servePassthrough gives a 2025-era client a 2026-07-28 upstream's log messages and resource updates", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      // No logging/setLevel, no resources/subscribe upstream: a level per request, a listen stream.
      fixture: {
        command: Deno.execPath(),
        args: [
          "run",
          "-A",
          "--config",
          `${ROOT}deno.json`,
          `${ROOT}tests/fixtures/servers/conformance_fixture.ts`,
        ],
        mcpx: { protocol: "modern" },
      },
    },
  });
  const client = new Client({ name: "passthrough-test", version: "1.0.0" });
  await client.connect(passthroughClient(w, "fixture"));
  try {
    assert.equal(client.getProtocolEra(), "legacy");
    const logged: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => void logged.push(n.params.data));
    await client.setLoggingLevel("info");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    assert.deepEqual(logged, [
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);

    assert.ok(client.getServerCapabilities()?.resources?.subscribe, "subscriptions declared");
    const updated = Promise.withResolvers<string>();
    client.setNotificationHandler(
      "notifications/resources/updated",
      (n) => updated.resolve(n.params.uri),
    );
    await client.subscribeResource({ uri: "test://watched-resource" });
    // The fixture says the watched resource changed every few seconds.
    assert.equal(await updated.promise, "test://watched-resource");
    await client.unsubscribeResource({ uri: "test://watched-resource" });
  } finally {
    await client.close();
  }
});
