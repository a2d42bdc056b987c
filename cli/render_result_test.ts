import assert from "node:assert/strict";
import { describeBlock, renderResult } from "./render_result.ts";

Deno.test("renderResult() prints structured output as JSON and text as text", () => {
  assert.equal(renderResult({ structuredContent: { sum: 3 }, content: [] }), '{\n  "sum": 3\n}');
  assert.equal(renderResult({ content: [{ type: "text", text: "Echo: hi" }] }), "Echo: hi");
});

Deno.test("describeBlock() describes images instead of dumping base64", () => {
  const line = describeBlock({ type: "image", mimeType: "image/png", data: "A".repeat(4000) });
  assert.match(line, /^\[image: image\/png, 2\.9 KiB;/);
  assert.ok(!line.includes("AAAA"));
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
