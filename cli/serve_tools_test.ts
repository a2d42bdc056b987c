import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { OPS } from "../ops/table.ts";
import { memoryIo } from "../core/io.ts";
import { SERVE_TOOL_PREFIX, serveTools } from "./serve_tools.ts";
import { serveServer } from "./serve_server.ts";
import { questionSeal } from "./serve_input.ts";

/** tools/list of serve as a client reads it, through the SDK, in memory. */
async function listed() {
  const server = serveServer(
    { io: memoryIo(), env: {}, cwd: "/", flags: {} },
    () => undefined,
    { seal: questionSeal(60_000), taskTtlMs: 60_000 },
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

Deno.test("serveTools() is the ops marked serve, in table order, with their hints", () => {
  const marked = OPS.filter((op) => op.serve !== undefined);
  const tools = serveTools();
  assert.deepEqual(tools.map((t) => t.name), marked.map((op) => SERVE_TOOL_PREFIX + op.name));
  for (const [i, tool] of tools.entries()) {
    const hints = marked[i].hints;
    assert.deepEqual(
      [
        tool.annotations.readOnlyHint,
        tool.annotations.destructiveHint,
        tool.annotations.idempotentHint,
      ],
      [hints.readOnly, hints.destructive, hints.idempotent],
      tool.name,
    );
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
  const bytes = new TextEncoder().encode(JSON.stringify({ tools })).length;
  console.log(
    `serve tools/list: ${tools.length} tools, ${bytes} bytes, ~${Math.round(bytes / 4)} tokens`,
  );
  for (const tool of tools) {
    const b = new TextEncoder().encode(JSON.stringify(tool)).length;
    console.log(`  ${tool.name}: ${b} bytes`);
  }
});
