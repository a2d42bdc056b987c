import assert from "node:assert/strict";
import { terminalText } from "./terminal_text.ts";

Deno.test("terminalText() shows every C0 and C1 control, DEL and a lone CR as \\uXXXX", () => {
  const cases: [string, string][] = [
    ["plain text, é and 🙂", "plain text, é and 🙂"],
    ["lines\nand\ttabs\r\nCRLF", "lines\nand\ttabs\r\nCRLF"],
    ["\x1b[2J\x1b]0;PWNED\x07", "\\u001b[2J\\u001b]0;PWNED\\u0007"],
    ["progress\r\x1b[K", "progress\\u000d\\u001b[K"],
    ["\x00\x08\x0b\x0c\x0e\x1f\x7f", "\\u0000\\u0008\\u000b\\u000c\\u000e\\u001f\\u007f"],
    ["8-bit CSI \u009b6n, NEL \u0085, APC \u009f", "8-bit CSI \\u009b6n, NEL \\u0085, APC \\u009f"],
    ["\u00a0 and \u2028 are not controls", "\u00a0 and \u2028 are not controls"],
  ];
  for (const [text, shown] of cases) assert.equal(terminalText(text), shown, JSON.stringify(text));
});

Deno.test("terminalText() of JSON text is the same JSON", () => {
  const value = { text: "a\x1b[31m\u009b\x7f\r\nb", n: [1, "\u0085"] };
  for (const json of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
    const shown = terminalText(json);
    assert.deepEqual(JSON.parse(shown), value);
    // deno-lint-ignore no-control-regex -- control characters are what it finds
    assert.doesNotMatch(shown, /[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  }
});
