import assert from "node:assert/strict";
import { readToolsPage } from "./tool_listing.ts";

Deno.test("readToolsPage() keeps good tools and skips a malformed one with its reason", () => {
  const page = readToolsPage({
    tools: [
      {
        name: "echo",
        description: "Echo",
        inputSchema: { type: "object", properties: { m: { type: "string" } } },
      },
      { name: "bad", inputSchema: "not a schema" },
      { name: "", inputSchema: {} },
      { name: "noargs" },
    ],
    nextCursor: "p2",
  });
  assert.deepEqual(page.tools.map((t) => t.name), ["echo", "noargs"]);
  assert.deepEqual(page.tools[1].inputSchema, { type: "object" });
  assert.deepEqual(page.skipped.map((s) => s.name), ["bad", ""]);
  assert.match(page.skipped[0].reason, /"inputSchema" must be a JSON Schema object/);
  assert.equal(page.nextCursor, "p2");
});

Deno.test("readToolsPage() refuses an answer without a tools array", () => {
  assert.throws(() => readToolsPage({ nope: 1 }), TypeError);
});

Deno.test("readToolsPage() leaves out tools that can only be called as tasks, saying why", () => {
  const page = readToolsPage({
    tools: [{
      name: "research",
      inputSchema: { type: "object" },
      execution: { taskSupport: "required" },
    }],
  });
  assert.deepEqual(page.tools, []);
  assert.match(page.skipped[0].reason, /only be called as a task/);
});
