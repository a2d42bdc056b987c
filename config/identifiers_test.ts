import assert from "node:assert/strict";
import { isIdentifier, toIdentifier } from "./identifiers.ts";

Deno.test("toIdentifier() maps names to identifiers", () => {
  const cases: [string, string][] = [
    ["chrome-devtools", "chrome_devtools"],
    ["fff", "fff"],
    ["2fa", "_2fa"],
    ["a.b c", "a_b_c"],
    ["delete", "delete_"],
    ["ok$", "ok$"],
    ["$prompts", "_$prompts"],
  ];
  for (const [input, want] of cases) assert.equal(toIdentifier(input), want, input);
});

Deno.test("toIdentifier() refuses an empty name", () => {
  assert.throws(() => toIdentifier(""), RangeError);
});

Deno.test("isIdentifier() accepts identifiers and rejects others", () => {
  assert.equal(isIdentifier("take_screenshot"), true);
  assert.equal(isIdentifier("take-screenshot"), false);
  assert.equal(isIdentifier("class"), false);
});
