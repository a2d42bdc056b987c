import assert from "node:assert/strict";
import { jsonByteLength, jsonPieces, SLICE_CHARS } from "./json_stream.ts";

const utf8 = (text: string) => new TextEncoder().encode(text).length;

const long = 'ab\n"\\é€😀\u0001\t'.repeat(SLICE_CHARS / 4);
const VALUES: [string, unknown][] = [
  ["a tool result", { content: [{ type: "text", text: "hello" }], isError: false }],
  ["a long string cut into slices", { text: long }],
  ["a surrogate pair at a slice's end", "x".repeat(SLICE_CHARS - 1) + "😀" + "y".repeat(10)],
  ["lone surrogates", ["\ud800", "a\udc00b", "\udbff"]],
  ["skipped members and nulls", { a: undefined, b: () => 1, c: Symbol("s"), d: [undefined, null] }],
  ["numbers", [0, -0, 1.5e300, NaN, Infinity, -1e-7]],
  ["toJSON and boxed values", { when: new Date(0), n: new Number(3), s: new String("x") }],
  ["nested toJSON results are not called again", { a: { toJSON: () => ({ toJSON: () => 1 }) } }],
  ["empty containers", { o: {}, a: [], s: "" }],
  ["a primitive", 42],
  ["keys that need escaping", { 'q"uote': 1, "é": 2, "\n": 3 }],
];

Deno.test("jsonPieces() joins to JSON.stringify's text, and jsonByteLength() is its UTF-8 length", () => {
  for (const [name, value] of VALUES) {
    const expected = JSON.stringify(value);
    const pieces = [...jsonPieces(value)];
    assert.equal(pieces.join(""), expected, name);
    assert.equal(jsonByteLength(value), utf8(expected), name);
  }
  assert.deepEqual([...jsonPieces(undefined)], []);
  assert.equal(jsonByteLength(undefined), 0);
});

Deno.test("jsonPieces() never holds much more than a slice of a long string at once", () => {
  const pieces = [...jsonPieces({ text: long })];
  const longest = Math.max(...pieces.map((p) => p.length));
  // A slice of 64 Ki characters may grow sixfold when every character is escaped.
  assert.ok(longest <= 6 * SLICE_CHARS, `${longest}`);
  assert.ok(pieces.length > long.length / SLICE_CHARS);
});

Deno.test("jsonPieces() and jsonByteLength() throw TypeError on a cycle or a BigInt", () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  for (const value of [cycle, { n: 1n }]) {
    assert.throws(() => [...jsonPieces(value)], TypeError);
    assert.throws(() => jsonByteLength(value), TypeError);
  }
  // The same object twice, side by side, is no cycle.
  const shared = { a: 1 };
  assert.equal([...jsonPieces([shared, shared])].join(""), '[{"a":1},{"a":1}]');
});
