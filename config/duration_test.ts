import assert from "node:assert/strict";
import { DurationError, type DurationProblem, formatDuration, parseDuration } from "./duration.ts";

Deno.test("parseDuration() behaviour", async (t) => {
  const good: [unknown, number][] = [
    ["500ms", 500],
    ["10s", 10_000],
    ["30m", 1_800_000],
    ["4h", 14_400_000],
    ["1d", 86_400_000],
    ["1.5h", 5_400_000],
    ["250", 250],
    [0, 0],
    [1234, 1234],
    ["24d", 2_073_600_000],
    [2_073_600_000, 2_073_600_000],
  ];
  for (const [input, ms] of good) {
    await t.step(`reads ${JSON.stringify(input)} as ${ms} ms`, () => {
      assert.equal(parseDuration(input), ms);
    });
  }
  const bad: unknown[] = ["", "10x", "-5s", "s", -1, Infinity, NaN, true, null, {}, "5 minutes"];
  for (const input of bad) {
    await t.step(`rejects ${String(JSON.stringify(input))} naming the accepted forms`, () => {
      assert.throws(() => parseDuration(input), (e: unknown) => {
        assert.ok(e instanceof RangeError);
        assert.match(e.message, /invalid duration/);
        assert.match(e.message, /"30m"/);
        return true;
      });
    });
  }
});

Deno.test("parseDuration() rejects durations over 24 days, naming the value and the limit", async (t) => {
  // setTimeout holds at most 2^31−1 ms (~24.8 days); a longer timer fires at once.
  for (const input of ["30d", "25d", "2073600001", 2_073_600_001, "600h", 1e20]) {
    await t.step(`rejects ${JSON.stringify(input)}`, () => {
      assert.throws(() => parseDuration(input), (e: unknown) => {
        assert.ok(e instanceof RangeError);
        assert.ok(e.message.includes(JSON.stringify(input)), e.message);
        assert.match(e.message, /24d \(2073600000 ms\)/);
        return true;
      });
    });
  }
  await t.step("accepts a longer one when the caller allows it", () => {
    assert.equal(parseDuration("30d", { maxMs: Infinity }), 2_592_000_000);
  });
});

Deno.test("formatDuration() behaviour", async (t) => {
  const cases: [number, string][] = [
    [0, "0ms"],
    [1500, "1500ms"],
    [90_000, "90s"],
    [1_800_000, "30m"],
    [14_400_000, "4h"],
    [86_400_000, "1d"],
    [172_800_000, "2d"],
  ];
  for (const [ms, text] of cases) {
    await t.step(`gives ${text} for ${ms} and reads back`, () => {
      assert.equal(formatDuration(ms), text);
      assert.equal(parseDuration(text), ms);
    });
  }
  await t.step("rejects negative and fractional values", () => {
    assert.throws(() => formatDuration(-1), RangeError);
    assert.throws(() => formatDuration(1.5), RangeError);
  });
});

Deno.test("parseDuration() says what is wrong with the format, never the limit", async (t) => {
  const cases: [unknown, DurationProblem, RegExp][] = [
    ["5 mins", "format", /write "5m"/],
    ["10 seconds", "format", /write "10s"/],
    ["2 hours", "format", /write "2h"/],
    ["5x", "format", /write e\.g\. "30s"/],
    ["-5s", "negative", /without the minus sign, e\.g\. "5s"/],
    [-250, "negative", /without the minus sign, e\.g\. 250/],
    ["30d", "too-long", /at most "24d"/],
  ];
  for (const [input, problem, fix] of cases) {
    await t.step(JSON.stringify(input), () => {
      assert.throws(() => parseDuration(input), (e: unknown) => {
        assert.ok(e instanceof DurationError);
        assert.equal(e.problem, problem);
        assert.match(e.fix, fix);
        if (problem !== "too-long") {
          assert.doesNotMatch(e.message, /24d|at most|limit/);
          assert.doesNotMatch(e.requirement, /24d|at most/);
        }
        return true;
      });
    });
  }
});
