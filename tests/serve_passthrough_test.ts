/**
 * `servePassthrough()` (cli/serve_passthrough.ts) over stdio, driven by the
 * SDK's client, with our conformance fixture as the one upstream: its tools,
 * prompts, resources and completions come through unprefixed, a call goes
 * through the daemon, the upstream's question reaches this client, and so do
 * its log messages during a call (at the level the client set).
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
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
