import assert from "node:assert/strict";
import { renderResult } from "./render_result.ts";

Deno.test("renderResult() prints structured output as JSON and text as text", () => {
  assert.equal(renderResult({ structuredContent: { sum: 3 }, content: [] }), '{\n  "sum": 3\n}');
  assert.equal(renderResult({ content: [{ type: "text", text: "Echo: hi" }] }), "Echo: hi");
});

Deno.test("renderResult() shows error text even when structured content exists", () => {
  assert.equal(
    renderResult({
      isError: true,
      structuredContent: {},
      content: [{ type: "text", text: "bad" }],
    }),
    "bad",
  );
});
