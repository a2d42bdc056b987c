import assert from "node:assert/strict";
import { PREVIEW_CHARS, resultPreview } from "./call_events.ts";

/** The preview as first written: the whole text joined, collapsed, trimmed, then cut. */
function wholeText(result: { content?: { type: string; text: string }[] }): string | undefined {
  const text = (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join(" ")
    .replace(/\s+/g, " ").trim();
  if (!text) return undefined;
  return text.length > PREVIEW_CHARS ? text.slice(0, PREVIEW_CHARS - 1) + "…" : text;
}

Deno.test("resultPreview() collapses white space across blocks and cuts at PREVIEW_CHARS", () => {
  const cases = [
    [{ type: "text", text: "  a\n\tb  " }, { type: "text", text: " c " }],
    [{ type: "text", text: "x".repeat(PREVIEW_CHARS) }],
    [{ type: "text", text: "x".repeat(PREVIEW_CHARS + 1) }],
    [{ type: "text", text: "ab ".repeat(PREVIEW_CHARS) }],
    [{ type: "text", text: " \n " }],
    [{ type: "image", text: "" }, { type: "text", text: "é ".repeat(150) }],
  ];
  for (const content of cases) {
    assert.equal(resultPreview({ content }), wholeText({ content }), JSON.stringify(content));
  }
  assert.equal(resultPreview({ content: [], structuredContent: { a: "b c" } }), '{"a":"b c"}');
  assert.equal(resultPreview("text"), undefined);
});
