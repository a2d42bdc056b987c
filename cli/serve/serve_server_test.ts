import assert from "node:assert/strict";
import * as z from "zod";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { memoryIo } from "../../core/io.ts";
import { serveServer, TASK_TOOLS } from "./serve_server.ts";
import { questionSeal } from "./serve_input.ts";
import { RELATED_TASK } from "./serve_tasks.ts";
import { fakeDaemon } from "./_fake_daemon.ts";

const ANY = z.looseObject({});

/** Sends any request and reads its answer loosely (the task methods have no typed SDK surface). */
// deno-lint-ignore no-explicit-any
function send(c: Client, method: string, params: Record<string, unknown>): Promise<any> {
  // deno-lint-ignore no-explicit-any
  return (c.request as any)({ method, params }, ANY);
}

/** A 2025-era SDK client connected in memory to one serve server (no daemon behind it). */
async function connected(): Promise<Client & AsyncDisposable> {
  const server = serveServer(
    // No configuration anywhere: every call fails fast, before any daemon.
    { io: memoryIo(), env: {}, cwd: "/nonexistent-mcpx-serve-test", flags: {} },
    () => undefined,
    // No server behind the daemon: the upstream lists are empty.
    { seal: questionSeal(60_000), taskTtlMs: 60_000, daemon: fakeDaemon({}) },
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "t", version: "0" });
  await client.connect(b);
  return Object.assign(client, {
    [Symbol.asyncDispose]: async () => {
      await client.close();
      await server.close();
    },
  });
}

Deno.test("serve declares tasks, prompts, resources, completions and logging; marks mcpx_call and mcpx_exec task-capable; refuses a cursor it did not make", async () => {
  await using c = await connected();
  const caps = c.getServerCapabilities() as Record<string, unknown>;
  assert.deepEqual(caps.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  assert.deepEqual(caps.completions, {});
  assert.deepEqual(caps.resources, { subscribe: true, listChanged: true });
  assert.deepEqual(caps.prompts, { listChanged: true });
  assert.deepEqual(caps.logging, {});
  const { tools } = await c.listTools();
  for (const tool of tools) {
    const support = (tool as { execution?: { taskSupport?: string } }).execution?.taskSupport;
    assert.equal(support, TASK_TOOLS.has(tool.name) ? "optional" : undefined, tool.name);
  }
  for (const list of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]) {
    await assert.rejects(
      send(c, list, { cursor: "bogus" }),
      /cursor "bogus" is not one this list handed out/,
      list,
    );
  }
  const { resourceTemplates } = await c.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), [
    "mcpx://types/{namespace}",
    "mcpx://types/{namespace}/{tool}",
  ]);
  // No configuration: nothing to complete, and nothing started to find that out.
  const done = await c.complete({
    ref: { type: "ref/resource", uri: "mcpx://types/{namespace}" },
    argument: { name: "namespace", value: "" },
  });
  assert.deepEqual(done.completion.values, []);
  await assert.rejects(c.readResource({ uri: "mcpx://types/nope" }), /HOME is unset|config/);
});

Deno.test("serve: a task-augmented mcpx_call answers a handle; tasks/get, result, list and cancel follow it", async () => {
  await using c = await connected();
  const made = await send(c, "tools/call", {
    name: "mcpx_call",
    arguments: { target: "nonsense" },
    task: { ttl: 30_000 },
  }) as { task: { taskId: string; status: string; ttl: number } };
  assert.equal(made.task.status, "working");
  assert.equal(made.task.ttl, 30_000);
  const id = made.task.taskId;
  const result = await send(c, "tasks/result", { taskId: id }) as {
    isError?: boolean;
    content: { text: string }[];
    _meta: Record<string, unknown>;
  };
  assert.equal(result.isError, true, "the call's own failure, as a plain call answers it");
  assert.match(result.content[0].text, /namespace|config/);
  assert.deepEqual(result._meta[RELATED_TASK], { taskId: id });
  const got = await send(c, "tasks/get", { taskId: id });
  assert.equal(got.status, "failed");
  const listed = await send(c, "tasks/list", {}) as {
    tasks: { taskId: string }[];
  };
  assert.deepEqual(listed.tasks.map((t) => t.taskId), [id]);
  await assert.rejects(
    send(c, "tasks/cancel", { taskId: id }),
    /already ended \(failed\)/,
  );
  await assert.rejects(
    send(c, "tasks/get", { taskId: "nope" }),
    /never made on this connection/,
  );
  // A task asked of a tool that cannot be one is run as a plain call.
  const plain = await send(c, "tools/call", {
    name: "mcpx_ls",
    arguments: {},
    task: { ttl: 1_000 },
  });
  assert.equal("task" in plain, false);
});
