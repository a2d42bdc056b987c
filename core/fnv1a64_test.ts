import assert from "node:assert/strict";
import { fnv1a64 } from "./fnv1a64.ts";

/** The definition: FNV-1a with 64-bit BigInt arithmetic (what poolId used before). */
function fnv1a64BigInt(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

Deno.test("fnv1a64() equals 64-bit FNV-1a computed with BigInt, so pool ids stay as they were", () => {
  const texts = [
    "",
    "a",
    "foobar",
    "é€😀\u0000\uffff",
    JSON.stringify({ command: "npx", args: ["-y", "server"] }),
  ];
  // Random code units, all 16 bits of each.
  let seed = 7;
  for (let n = 0; n < 200; n++) {
    let text = "";
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      text += String.fromCharCode(seed & 0xffff);
    }
    texts.push(text);
  }
  for (const text of texts) assert.equal(fnv1a64(text), fnv1a64BigInt(text), JSON.stringify(text));
  // The published test vector of FNV-1a 64 for "a".
  assert.equal(fnv1a64("a"), "af63dc4c8601ec8c");
});
