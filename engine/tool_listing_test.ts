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

Deno.test("readToolsPage() keeps a task-only tool with its taskSupport, and drops forbidden or unknown values", () => {
  const page = readToolsPage({
    tools: [
      { name: "research", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
      { name: "maybe", execution: { taskSupport: "optional" } },
      { name: "plain", execution: { taskSupport: "forbidden" } },
      { name: "odd", execution: { taskSupport: "sometimes" } },
    ],
  });
  assert.deepEqual(page.skipped, []);
  assert.deepEqual(page.tools.map((t) => [t.name, t.execution?.taskSupport]), [
    ["research", "required"],
    ["maybe", "optional"],
    ["plain", undefined],
    ["odd", undefined],
  ]);
});
