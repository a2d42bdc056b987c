import assert from "node:assert/strict";
import { LineIndex } from "./_line_index.ts";

/** The definition: count the newlines before `offset`. */
function naive(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

Deno.test("LineIndex.locate() gives the line and column the text has at every offset", () => {
  for (const text of ["", "x", "\n", "ab\ncd\n\nef", "a\r\nb\r\n", "\n\n\nlast", "é😀\nx"]) {
    const index = new LineIndex(text);
    for (let offset = 0; offset <= text.length + 2; offset++) {
      assert.deepEqual(
        index.locate(offset),
        naive(text, offset),
        `${JSON.stringify(text)}@${offset}`,
      );
    }
  }
});

Deno.test("LineIndex reads the text once and answers each lookup in log2(lines) steps", () => {
  const lines = 10_000;
  const text = Array.from({ length: lines }, (_, i) => `  "key${i}": ${i},`).join("\n");
  const index = new LineIndex(text);
  assert.equal(index.scanned, text.length);
  assert.equal(index.lines, lines);
  const offsets = Array.from({ length: 5_000 }, (_, i) => Math.floor((i * text.length) / 5_000));
  for (const offset of offsets) assert.deepEqual(index.locate(offset), naive(text, offset));
  assert.equal(index.lookups, offsets.length);
  // Rescanning from the start for each offset (the earlier lookup) would take ~text.length/2 each.
  assert.ok(
    index.steps <= offsets.length * Math.ceil(Math.log2(lines + 1)),
    `${index.steps} binary-search steps for ${offsets.length} lookups over ${lines} lines`,
  );
});
