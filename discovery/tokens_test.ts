import assert from "node:assert/strict";
import { countTokens } from "./tokens.ts";

Deno.test("countTokens() rounds UTF-8 bytes / 3 up", () => {
  const cases: [string, number][] = [
    ["", 0],
    ["a", 1],
    ["abc", 1],
    ["abcd", 2],
    ["é", 1],
    ["日本語", 3],
    ["function click(args: { uid: string }): Promise<ToolResult>;", 20],
  ];
  for (const [text, want] of cases) assert.equal(countTokens(text), want, text);
});
