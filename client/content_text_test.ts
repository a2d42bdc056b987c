import assert from "node:assert/strict";
import { describeBlock, isBinaryBlock } from "./content_text.ts";

Deno.test("describeBlock() describes images instead of dumping base64", () => {
  const line = describeBlock({ type: "image", mimeType: "image/png", data: "A".repeat(4000) });
  assert.match(line, /^\[image: image\/png, 2\.9 KiB; `mcpx call --raw` prints the data\]$/);
  assert.ok(!line.includes("AAAA"));
});

Deno.test("describeBlock() ends a binary description with the caller's hint, text as it is", () => {
  const blob = { type: "resource", resource: { uri: "file:///a", blob: "aGVsbG8=" } };
  assert.equal(describeBlock(blob, "in .raw"), "[resource file:///a: binary, 5 bytes; in .raw]");
  assert.equal(describeBlock({ type: "text", text: "hi" }, "in .raw"), "hi");
});

Deno.test("isBinaryBlock() is true only for blocks carrying base64", () => {
  assert.equal(isBinaryBlock({ type: "image", data: "aGVsbG8=", mimeType: "image/png" }), true);
  assert.equal(isBinaryBlock({ type: "audio", data: "" }), true);
  assert.equal(isBinaryBlock({ type: "resource", resource: { blob: "AA==" } }), true);
  assert.equal(isBinaryBlock({ type: "resource", resource: { text: "t" } }), false);
  assert.equal(isBinaryBlock({ type: "image" }), false);
  assert.equal(isBinaryBlock({ type: "text", text: "t" }), false);
  assert.equal(isBinaryBlock("image"), false);
});
