import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { OPS } from "../../ops/table.ts";
import { memoryIo } from "../../core/io.ts";
import {
  isCore,
  NOT_SERVED,
  opInputOf,
  SERVE_TOOL_PREFIX,
  type ServeTool,
  serveToolChoice,
  serveTools,
} from "./serve_tools.ts";
import { UsageError } from "../../core/errors.ts";
import { serveServer } from "./serve_server.ts";
import { questionSeal } from "./serve_input.ts";

/** tools/list of serve as a client reads it, through the SDK, in memory. */
async function listed(tools?: ServeTool[]) {
  const server = serveServer(
    { io: memoryIo(), env: {}, cwd: "/", flags: {} },
    () => undefined,
    { seal: questionSeal(60_000), taskTtlMs: 60_000, ...(tools ? { tools } : {}) },
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "t", version: "0" });
  await client.connect(b);
  try {
    return await client.listTools();
  } finally {
    await client.close();
    await server.close();
  }
}

Deno.test("serveTools() is the core ops (marked serve, not core: false), in table order, with their hints", () => {
  const marked = OPS.filter(isCore);
  const tools = serveTools();
  assert.deepEqual(tools.map((t) => t.name), marked.map((op) => SERVE_TOOL_PREFIX + op.name));
  for (const [i, tool] of tools.entries()) {
    const hints = marked[i].hints;
    // Read with the protocol's defaults for what is left out (MCP 2025-06-18 ToolAnnotations).
    const a = tool.annotations;
    assert.equal(a.readOnlyHint ?? false, hints.readOnly, tool.name);
    if (!hints.readOnly) {
      assert.deepEqual(
        [a.destructiveHint ?? true, a.idempotentHint ?? false, a.openWorldHint ?? true],
        [hints.destructive, hints.idempotent, true],
        tool.name,
      );
    } else assert.deepEqual(a, { readOnlyHint: true, openWorldHint: false }, tool.name);
  }
  // The tools an agent needs to reach every server without its schemas.
  for (const name of ["ls", "search", "types", "catalog", "call", "exec", "status", "restart"]) {
    assert.ok(tools.some((t) => t.name === SERVE_TOOL_PREFIX + name), name);
  }
});

Deno.test("serve's tools/list: object input schemas with the op's wording, and its size", async () => {
  const { tools } = await listed();
  assert.deepEqual(tools.map((t) => t.name), serveTools().map((t) => t.name));
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object", tool.name);
    if (tool.outputSchema) assert.equal(tool.outputSchema.type, "object", tool.name);
    assert.ok(tool.description && tool.description.length > 40, tool.name);
  }
  const call = tools.find((t) => t.name === "mcpx_call")!;
  assert.deepEqual(Object.keys(call.inputSchema.properties ?? {}), [
    "target",
    "arguments",
    "timeout",
  ]);
  // What a client pays to learn mcpx's tools: at most 1,500 tokens (bytes / 4; issue 27).
  const bytes = new TextEncoder().encode(JSON.stringify({ tools })).length;
  const sizes = tools.map((t) => `${t.name} ${JSON.stringify(t).length}`).join(", ");
  assert.ok(bytes <= 6_000, `serve's tools/list is ${bytes} bytes (${sizes})`);
  for (const tool of tools) {
    assert.equal(tool.outputSchema, undefined, `${tool.name}: no output schema (decision 0071)`);
    assert.equal((tool.inputSchema as { $schema?: string }).$schema, undefined, tool.name);
  }
});

Deno.test("--tools all offers every op but the ones serve names as not served; names pick a few", () => {
  const all = serveTools(OPS, serveToolChoice("all"));
  const want = OPS.filter((op) => !Object.hasOwn(NOT_SERVED, op.name));
  assert.deepEqual(all.map((t) => t.op.name), want.map((op) => op.name));
  assert.ok(all.length > serveTools().length);
  // A tool takes no server named on the command line.
  const call = all.find((t) => t.op.name === "call")!;
  assert.ok(!("stdio" in call.input.shape) && !("header" in call.input.shape));
  const doctor = all.find((t) => t.op.name === "doctor")!;
  assert.equal(doctor.name, "mcpx_doctor");
  const picked = serveTools(
    OPS,
    serveToolChoice("status, mcpx_completion_words".replace(
      "mcpx_completion_words",
      "mcpx_daemons",
    )),
  );
  assert.deepEqual(picked.map((t) => t.name), ["mcpx_status", "mcpx_daemons"]);
  assert.equal(serveToolChoice(undefined), "core");
  assert.equal(serveToolChoice("core"), "core");
});

Deno.test("--tools refuses a name that is no op, and an op serve does not offer, saying why", () => {
  assert.throws(
    () => serveToolChoice("serch"),
    (e: unknown) => e instanceof UsageError && /"serch".*search/.test(e.message),
  );
  assert.throws(
    () => serveToolChoice("daemon"),
    (e: unknown) => e instanceof UsageError && /foreground/.test(e.message),
  );
  assert.throws(() => serveToolChoice(","), UsageError);
});

Deno.test("serve --tools all: every tool's input and output schema reaches a client as an object", async () => {
  const all = serveTools(OPS, "all");
  const { tools } = await listed(all);
  assert.deepEqual(tools.map((t) => t.name), all.map((t) => t.name));
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object", tool.name);
    if (tool.outputSchema) assert.equal(tool.outputSchema.type, "object", tool.name);
  }
});

Deno.test("a tool's duration field says the syntax it takes, as the flag's help does", () => {
  const call = serveTools().find((t) => t.op.name === "call")!;
  assert.match(call.input.shape.timeout.description ?? "", /e\.g\. 30s/);
});

Deno.test("--tools widens core by names and takes all over anything; duplicates count once", () => {
  const widened = serveTools(OPS, serveToolChoice("core,doctor,mcpx_doctor"));
  assert.deepEqual(
    widened.map((t) => t.op.name),
    OPS.filter((op) => isCore(op) || op.name === "doctor").map((op) => op.name),
  );
  assert.equal(serveToolChoice("all,doctor"), "all");
  assert.equal(serveToolChoice(" core "), "core");
});

Deno.test("a tool takes a number or a boolean where the command line reads a word", () => {
  const log = serveTools(OPS, "all").find((t) => t.op.name === "log")!;
  const input = opInputOf(log, { limit: 5 }) as { limit?: string };
  assert.equal(input.limit, "5");
});

Deno.test("a tool call that would stream until interrupted is refused, saying what to do instead", () => {
  const tools = serveTools(OPS, "all");
  const tool = (name: string) => tools.find((t) => t.op.name === name)!;
  assert.throws(
    () => opInputOf(tool("log"), { follow: true }),
    (e: unknown) => e instanceof UsageError && /mcpx_log: follow streams/.test(e.message),
  );
  assert.throws(() => opInputOf(tool("adapter"), { words: ["serve", "x"] }), UsageError);
  assert.throws(() => opInputOf(tool("api"), { action: "serve" }), UsageError);
  // What can answer still does, and the command line is not refused anything.
  assert.doesNotThrow(() => opInputOf(tool("log"), {}));
  assert.doesNotThrow(() => opInputOf(tool("api"), { action: "tools" }));
  // Streaming ops stay out of plain serve's list.
  for (const name of ["log", "adapter", "api"]) {
    assert.ok(!serveTools().some((t) => t.op.name === name), name);
  }
});

Deno.test("mcpx_call takes its timeout as ms or a duration, within the timer limit, and names what is wrong", () => {
  const call = serveTools().find((t) => t.op.name === "call")!;
  const input = (timeout: unknown) =>
    opInputOf(call, { target: "everything.echo", arguments: { message: "hi" }, timeout }) as {
      timeout?: number;
      arguments?: unknown;
    };
  assert.equal(input(1500).timeout, 1500);
  assert.equal(input("2m").timeout, 120_000);
  assert.deepEqual(input(1500).arguments, { message: "hi" }, "the arguments stay an object");
  assert.throws(() => input(2 ** 31), /longer than the limit of 24d/);
  assert.throws(() => input("soon"), /invalid duration .*soon/);
  assert.throws(() => input(0), /at least 1/);
});
