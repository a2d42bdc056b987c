/**
 * Plain `mcpx serve` over stdio, driven by the SDK's client, with our
 * conformance fixture configured as the namespace `conf` (and as `web`, an
 * alias outside the default profile selection, which is not shown): its
 * prompts and resources come through under their namespaced names (decision 0073),
 * listed, got, read, completed and subscribed to through the daemon, an
 * upstream's list change reaches the client as the merged list's, and an
 * `mcpx_call`'s log messages reach it at the level it set.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { eventually, mcpxArgv, world } from "./_helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;

const STATIC = "mcpx://conf/test%3A%2F%2Fstatic-text";
const TEMPLATE = "mcpx://conf/test%3A%2F%2Ftemplate%2F{id}%2Fdata";
const WATCHED = "mcpx://conf/test%3A%2F%2Fwatched-resource";

Deno.test("mcpx serve lists, gets, reads, completes and subscribes to a server's prompts and resources under namespaced names", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      conf: {
        command: Deno.execPath(),
        args: [
          "run",
          "-A",
          "--config",
          `${ROOT}deno.json`,
          `${ROOT}tests/fixtures/servers/conformance_fixture.ts`,
        ],
      },
      // Outside the default selection: serve neither lists nor reads it.
      web: { aliasOf: "conf", mcpx: { profiles: ["web"], default: false } },
    },
  });
  const [command, ...args] = mcpxArgv(["serve"]);
  const client = new Client({ name: "serve-namespaced-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command, args, cwd: w.dir, env: w.env, stderr: "inherit" }),
  );
  try {
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps?.prompts, { listChanged: true });
    assert.deepEqual(caps?.resources, { subscribe: true, listChanged: true });
    assert.ok(caps?.logging && caps?.completions);

    // Prompts: <namespace>.<prompt>, got from their server with their arguments.
    const { prompts } = await client.listPrompts();
    const names = prompts.map((p) => p.name);
    assert.ok(names.includes("conf.test_simple_prompt"), names.join(", "));
    assert.ok(names.includes("conf.test_prompt_with_arguments"), names.join(", "));
    assert.ok(!names.some((n) => n.startsWith("web.")), "an unselected namespace is not listed");
    const simple = await client.getPrompt({ name: "conf.test_simple_prompt" });
    assert.deepEqual(simple.messages[0].content, {
      type: "text",
      text: "This is a simple prompt for testing.",
    });
    const withArgs = await client.getPrompt({
      name: "conf.test_prompt_with_arguments",
      arguments: { arg1: "hello", arg2: "world" },
    });
    assert.deepEqual(withArgs.messages[0].content, {
      type: "text",
      text: "Prompt with arguments: arg1='hello', arg2='world'",
    });
    const completed = await client.complete({
      ref: { type: "ref/prompt", name: "conf.test_prompt_with_arguments" },
      argument: { name: "arg1", value: "par" },
    });
    assert.deepEqual(completed.completion.values, ["paris", "park", "party"]);

    // Resources: mcpx://conf/<the upstream's URI, percent-encoded>, and back.
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes(STATIC), uris.join(", "));
    const read = await client.readResource({ uri: STATIC });
    assert.deepEqual(read.contents, [{
      uri: STATIC,
      mimeType: "text/plain",
      text: "This is the content of the static text resource.",
    }]);
    const { resourceTemplates } = await client.listResourceTemplates();
    const templates = resourceTemplates.map((t) => t.uriTemplate);
    assert.ok(templates.includes(TEMPLATE), templates.join(", "));
    assert.ok(templates.includes("mcpx://types/{namespace}"), "serve's own templates stay");
    const expanded = TEMPLATE.replace("{id}", "123");
    const data = await client.readResource({ uri: expanded });
    assert.equal(data.contents[0].uri, expanded);
    assert.deepEqual(JSON.parse((data.contents[0] as { text: string }).text), {
      id: "123",
      templateTest: true,
      data: "Data for ID: 123",
    });
    const ids = await client.complete({
      ref: { type: "ref/resource", uri: TEMPLATE },
      argument: { name: "id", value: "1" },
    });
    assert.deepEqual(ids.completion.values, ["1", "123"]);
    assert.ok(!uris.some((u) => u.startsWith("mcpx://web/")), uris.join(", "));
    await assert.rejects(
      client.readResource({ uri: "mcpx://web/test%3A%2F%2Fstatic-text" }),
      (e: { code?: number }) => e.code === -32602,
    );
    const signatures = await client.readResource({ uri: "mcpx://types/conf" });
    assert.match((signatures.contents[0] as { text: string }).text, /test_simple_text/);

    // A subscription is held upstream; its update arrives under the namespaced URI.
    const updated = Promise.withResolvers<string>();
    client.setNotificationHandler(
      "notifications/resources/updated",
      (n) => updated.resolve(n.params.uri),
    );
    await client.subscribeResource({ uri: WATCHED });
    // The fixture says the watched resource changed every few seconds.
    assert.equal(await updated.promise, WATCHED);
    await client.unsubscribeResource({ uri: WATCHED });

    // An upstream's prompts list_changed is the merged list's.
    let changes = 0;
    client.setNotificationHandler("notifications/prompts/list_changed", () => void changes++);
    const before = changes;
    const added = await client.callTool({
      name: "mcpx_call",
      arguments: { target: "conf.test_trigger_prompt_change", arguments: {} },
    });
    assert.notEqual(added.isError, true, JSON.stringify(added));
    assert.ok(await eventually(() => changes > before, 15_000), "prompts/list_changed relayed");
    const again = (await client.listPrompts()).prompts.map((p) => p.name);
    assert.ok(again.some((n) => /^conf\.test_added_prompt_\d+$/.test(n)), again.join(", "));

    // logging/setLevel is accepted, and sets what serve passes on of an mcpx_call's server's log.
    const logged: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => void logged.push(n.params.data));
    const logging = () =>
      client.callTool({
        name: "mcpx_call",
        arguments: { target: "conf.test_tool_with_logging", arguments: {} },
      });
    await logging();
    assert.deepEqual(logged, [], "no level set: none passed on");
    assert.deepEqual(await client.setLoggingLevel("info"), {});
    await logging();
    assert.deepEqual(logged, [
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    await client.setLoggingLevel("error");
    await logging();
    assert.equal(logged.length, 3, "info messages are below the client's level now");
  } finally {
    await client.close();
  }
});
