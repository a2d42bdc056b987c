import assert from "node:assert/strict";
import { isIdentifier, isPlainServerName, toIdentifier } from "./identifiers.ts";

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

Deno.test("isPlainServerName() accepts hyphens, as a configured server's name may have", () => {
  assert.equal(isPlainServerName("my-weather"), true);
  assert.equal(isPlainServerName("hosted_notes"), true);
  assert.equal(isPlainServerName("1x"), false);
  assert.equal(isPlainServerName("-x"), false);
  assert.equal(isPlainServerName("a b"), false);
});
