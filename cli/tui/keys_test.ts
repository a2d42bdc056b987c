import assert from "node:assert/strict";
import { parseInput } from "./keys.ts";

Deno.test("parseInput() names keys, arrows and pages, and reads Control", () => {
  assert.deepEqual(parseInput("q]/\r\x7f\t\x1b[A\x1b[B\x1bOC\x1b[5~\x1b[6~\x1b[H\x03"), [
    { type: "key", key: "q" },
    { type: "key", key: "]" },
    { type: "key", key: "/" },
    { type: "key", key: "enter" },
    { type: "key", key: "backspace" },
    { type: "key", key: "tab" },
    { type: "key", key: "up" },
    { type: "key", key: "down" },
    { type: "key", key: "right" },
    { type: "key", key: "pageup" },
    { type: "key", key: "pagedown" },
    { type: "key", key: "home" },
    { type: "key", key: "c", ctrl: true },
  ]);
});

Deno.test("parseInput() reads an escape alone as Escape, and skips sequences it does not know", () => {
  assert.deepEqual(parseInput("\x1b"), [{ type: "key", key: "escape" }]);
  // F5 and a focus report are not typed into anything.
  assert.deepEqual(parseInput("\x1b[15~\x1b[Ia"), [{ type: "key", key: "a" }]);
});

Deno.test("parseInput() reads SGR mouse reports at 0-based cells: press, release, drag, wheel", () => {
  assert.deepEqual(
    parseInput("\x1b[<0;10;5M\x1b[<0;10;5m\x1b[<32;11;5M\x1b[<64;1;1M\x1b[<65;1;1M"),
    [
      { type: "mouse", action: "press", button: 0, x: 9, y: 4 },
      { type: "mouse", action: "release", button: 0, x: 9, y: 4 },
      { type: "mouse", action: "drag", button: 0, x: 10, y: 4 },
      { type: "mouse", action: "wheelup", button: 0, x: 0, y: 0 },
      { type: "mouse", action: "wheeldown", button: 0, x: 0, y: 0 },
    ],
  );
});

Deno.test("parseInput() keeps a character beyond the BMP whole", () => {
  assert.deepEqual(parseInput("🙂"), [{ type: "key", key: "🙂" }]);
});
