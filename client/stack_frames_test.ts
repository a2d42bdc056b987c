import { deepStrictEqual as deepEqual, match, ok } from "node:assert/strict";
import { captureFrames, errorFrames } from "./stack_frames.ts";

Deno.test("errorFrames() returns frames and keeps .stack a string, in either order", () => {
  function thrower() {
    return new Error("boom");
  }
  const first = thrower();
  const frames = errorFrames(first);
  deepEqual(frames[0].function, "thrower");
  ok(frames[0].file!.endsWith("stack_frames_test.ts"));
  deepEqual([typeof frames[0].line, frames[0].async, frames[0].native], [
    "number",
    false,
    false,
  ]);
  deepEqual(typeof first.stack, "string");
  match(first.stack!, /^Error: boom\n\s+at thrower \(.*stack_frames_test\.ts:\d+:\d+\)/);
  deepEqual(errorFrames(first), frames);

  const second = thrower();
  const stackFirst = second.stack!;
  deepEqual(errorFrames(second)[0].function, "thrower");
  deepEqual(second.stack, stackFirst);
});

Deno.test("errorFrames() marks async frames", async () => {
  async function inner() {
    await Promise.resolve();
    throw new Error("late");
  }
  async function outer() {
    await inner();
  }
  const error = await outer().catch((e) => e);
  const frames = errorFrames(error);
  deepEqual(frames[0].function, "inner");
  ok(frames.some((f) => f.async && f.function === "outer"), JSON.stringify(frames));
  match(error.stack, /at async outer/);
});

Deno.test("captureFrames() starts at its caller and honours skip and limit", () => {
  function leaf() {
    return [captureFrames(), captureFrames(1, 1)];
  }
  function branch() {
    return leaf();
  }
  const [all, skipped] = branch();
  deepEqual(all.slice(0, 2).map((f) => f.function), ["leaf", "branch"]);
  deepEqual(skipped.map((f) => f.function), ["branch"]);
});
