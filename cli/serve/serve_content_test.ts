import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { memoryIo } from "../../core/io.ts";
import { serveServer } from "./serve_server.ts";
import { questionSeal } from "./serve_input.ts";
import { type FakeDaemon, fakeDaemon } from "./_fake_daemon.ts";

/** Two namespaces with prompts and resources, one named `types`, and one whose listing fails. */
function daemon(): FakeDaemon {
  return fakeDaemon({
    conf: {
      prompts: [
        { name: "test_simple_prompt", description: "plain" },
        { name: "with.dot", arguments: [{ name: "arg1", required: true }] },
      ],
      resources: [{ uri: "test://static-text", name: "static-text", mimeType: "text/plain" }],
      resourceTemplates: [{ uriTemplate: "test://template/{id}/data", name: "template-data" }],
    },
    types: {
      prompts: [{ name: "test_simple_prompt" }],
      resources: [{ uri: "fs", name: "fs" }],
    },
    broken: { error: "it would not start" },
  });
}

/** A 2025-era SDK client connected in memory to one serve server over `fake`. */
async function connected(fake: FakeDaemon) {
  const io = memoryIo();
  const server = serveServer(
    { io, env: {}, cwd: "/", flags: {} },
    () => "serve-test",
    { seal: questionSeal(60_000), taskTtlMs: 60_000, daemon: fake },
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "t", version: "0" });
  await client.connect(b);
  return Object.assign(client, {
    io,
    [Symbol.asyncDispose]: async () => {
      await client.close();
      await server.close();
    },
  });
}

Deno.test("serve lists every namespace's prompts as <namespace>.<prompt> and gets one from its server with its arguments", async () => {
  const fake = daemon();
  await using c = await connected(fake);
  const { prompts } = await c.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name), [
    "conf.test_simple_prompt",
    "conf.with.dot",
    "types.test_simple_prompt",
  ]);
  assert.deepEqual(prompts[1].arguments, [{ name: "arg1", required: true }]);
  assert.match(c.io.stderr, /prompts\/list: broken is left out: it would not start/);

  const got = await c.getPrompt({ name: "conf.with.dot", arguments: { arg1: "hello" } });
  assert.deepEqual(got.messages[0].content, {
    type: "text",
    text: 'with.dot {"arg1":"hello"}',
  });
  assert.equal(
    (got.messages[1].content as { resource: { uri: string } }).resource.uri,
    "mcpx://conf/test%3A%2F%2Fembedded",
    "an embedded resource is named as serve lists it",
  );
  assert.deepEqual(fake.sent.find(([op]) => op === "promptGet")?.[1], {
    session: "serve-test",
    namespace: "conf",
    prompt: "with.dot",
    arguments: { arg1: "hello" },
  });
  await assert.rejects(
    c.getPrompt({ name: "no_namespace" }),
    (e: { code?: number }) => e.code === -32602,
  );
  await assert.rejects(
    c.getPrompt({ name: "nope.x" }),
    (e: { code?: number; message: string }) =>
      e.code === -32602 && /unknown namespace/.test(e.message),
  );
});

Deno.test("serve lists upstream resources and templates as mcpx://<namespace>/<encoded uri> beside its signature templates, and reads them from their server", async () => {
  const fake = daemon();
  await using c = await connected(fake);
  const { resources } = await c.listResources();
  assert.deepEqual(resources.map((r) => [r.uri, r.name]), [
    ["mcpx://conf/test%3A%2F%2Fstatic-text", "conf.static-text"],
    ["mcpx://types/-/fs", "types.fs"],
  ]);
  const { resourceTemplates } = await c.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), [
    "mcpx://types/{namespace}",
    "mcpx://types/{namespace}/{tool}",
    "mcpx://conf/test%3A%2F%2Ftemplate%2F{id}%2Fdata",
  ]);

  const read = await c.readResource({ uri: "mcpx://conf/test%3A%2F%2Fstatic-text" });
  assert.deepEqual(read.contents, [{
    uri: "mcpx://conf/test%3A%2F%2Fstatic-text",
    mimeType: "text/plain",
    text: "read test://static-text",
  }]);
  // The template expanded by the client reads the upstream's template expanded.
  const expanded = resourceTemplates[2].uriTemplate.replace("{id}", "42");
  const data = await c.readResource({ uri: expanded });
  assert.equal((data.contents[0] as { text: string }).text, "read test://template/42/data");
  assert.equal(data.contents[0].uri, expanded);
  // A URI with every character that needs escaping goes through whole.
  const odd = "file:///a dir/b?c=d%2Fe&f=#g h";
  const back = await c.readResource({ uri: `mcpx://conf/${encodeURIComponent(odd)}` });
  assert.equal((back.contents[0] as { text: string }).text, `read ${odd}`);
  // The namespace named types, and serve's own signatures, each where they belong.
  const typed = await c.readResource({ uri: "mcpx://types/-/fs" });
  assert.equal((typed.contents[0] as { text: string }).text, "read fs");
  assert.deepEqual(
    fake.sent.filter(([op]) => op === "resourceRead").map(([, p]) => [p.namespace, p.uri]),
    [
      ["conf", "test://static-text"],
      ["conf", "test://template/42/data"],
      ["conf", odd],
      ["types", "fs"],
    ],
  );
  await assert.rejects(
    c.readResource({ uri: "test://static-text" }),
    (e: { code?: number; message: string }) =>
      e.code === -32602 && /not a resource serve lists/.test(e.message),
  );
  await assert.rejects(
    c.readResource({ uri: "mcpx://conf/%E0%A4%A" }),
    (e: { code?: number }) => e.code === -32602,
  );
});

Deno.test("serve passes completion of a prompt's argument and a template's variable to their server", async () => {
  const fake = daemon();
  await using c = await connected(fake);
  const prompt = await c.complete({
    ref: { type: "ref/prompt", name: "conf.with.dot" },
    argument: { name: "arg1", value: "pa" },
    context: { arguments: { arg2: "x" } },
  });
  assert.deepEqual(prompt.completion.values, ["pa1", "pa2", "pa3"]);
  const template = await c.complete({
    ref: { type: "ref/resource", uri: "mcpx://conf/test%3A%2F%2Ftemplate%2F{id}%2Fdata" },
    argument: { name: "id", value: "1" },
  });
  assert.deepEqual(template.completion.values, ["11", "12", "13"]);
  assert.deepEqual(
    fake.sent.filter(([op]) => op === "complete").map(([, p]) => [p.namespace, p.ref, p.context]),
    [
      ["conf", { type: "ref/prompt", name: "with.dot" }, { arg2: "x" }],
      ["conf", { type: "ref/resource", uri: "test://template/{id}/data" }, undefined],
    ],
  );
  // serve's own templates still complete from the schema cache (none here), asking no server.
  const own = await c.complete({
    ref: { type: "ref/resource", uri: "mcpx://types/{namespace}" },
    argument: { name: "namespace", value: "" },
  });
  assert.deepEqual(own.completion.values, []);
  assert.equal(fake.sent.filter(([op]) => op === "complete").length, 2);
});

Deno.test("serve holds a subscription upstream, sends its update under the namespaced URI, and says a merged list changed", async () => {
  const fake = daemon();
  await using c = await connected(fake);
  const updated = Promise.withResolvers<string>();
  c.setNotificationHandler("notifications/resources/updated", (n) => updated.resolve(n.params.uri));
  const uri = "mcpx://conf/test%3A%2F%2Fstatic-text";
  await c.subscribeResource({ uri });
  assert.deepEqual(fake.instance("conf").sent, ["resources/subscribe test://static-text"]);
  fake.table.updated(fake.instance("conf"), "test://static-text");
  assert.equal(await updated.promise, uri);
  await c.unsubscribeResource({ uri });
  assert.deepEqual(fake.instance("conf").sent.at(-1), "resources/unsubscribe test://static-text");
  await assert.rejects(
    c.subscribeResource({ uri: "mcpx://types/conf" }),
    /signature resources, which send no updates/,
  );

  // Once the client has listed, an upstream's list change is the merged list's.
  const prompts = Promise.withResolvers<void>();
  const listed = Promise.withResolvers<void>();
  c.setNotificationHandler("notifications/prompts/list_changed", () => prompts.resolve());
  c.setNotificationHandler("notifications/resources/list_changed", () => listed.resolve());
  await c.listPrompts();
  const watching = () =>
    fake.sent.some(([op, p]) => op === "resourceUpdates" && (p as { lists?: boolean }).lists);
  for (const end = Date.now() + 10_000; !watching();) {
    assert.ok(Date.now() < end, "serve watches the lists once the client listed");
    await new Promise((r) => setTimeout(r, 5));
  }
  fake.table.listChanged("conf", "prompts");
  fake.table.listChanged("types", "resources");
  await prompts.promise;
  await listed.promise;
});

Deno.test("serve accepts logging/setLevel; a 2026-07-28 instance declares no subscriptions or list_changed", async () => {
  await using c = await connected(daemon());
  assert.deepEqual(await c.setLoggingLevel("warning"), {});
  const modern = serveServer(
    { io: memoryIo(), env: {}, cwd: "/", flags: {} },
    () => undefined,
    { seal: questionSeal(60_000), taskTtlMs: 60_000, daemon: daemon() },
    "modern",
  );
  const caps = modern.server.getCapabilities();
  assert.deepEqual(caps.resources, { listChanged: false });
  assert.deepEqual(caps.prompts, { listChanged: false });
  assert.deepEqual(caps.logging, {});
  assert.deepEqual(caps.completions, {});
  await modern.close();
});
