import assert from "node:assert/strict";
import { parseTimeoutFlag } from "./timeout_flag.ts";
import { UsageError } from "../core/errors.ts";

Deno.test("parseTimeoutFlag() reads durations and refuses the rest as usage errors", () => {
  assert.equal(parseTimeoutFlag("30s"), 30_000);
  assert.equal(parseTimeoutFlag("1500"), 1500);
  for (
    const [text, words] of [
      ["5x", /--timeout: invalid duration "5x"/],
      ["0", /more than 0, got "0"/],
      ["-1s", /more than 0, got "-1s"/],
      ["99d", /longer than the limit/],
    ] as const
  ) {
    assert.throws(
      () => parseTimeoutFlag(text),
      (e) => e instanceof UsageError && words.test(e.message),
    );
  }
});
