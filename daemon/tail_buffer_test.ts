import assert from "node:assert/strict";
import { TailBuffer } from "./tail_buffer.ts";

Deno.test("TailBuffer keeps only the most recent text, from a line boundary", () => {
  const tail = new TailBuffer(10);
  tail.append("first line\nsecond\n");
  tail.append("third\n");
  assert.ok(tail.toString().length <= 10);
  assert.equal(tail.toString(), "third\n");
  assert.deepEqual(tail.lastLines(1), ["third"]);
});

Deno.test("TailBuffer refuses a limit below 1", () => {
  assert.throws(() => new TailBuffer(0), RangeError);
});
