import assert from "node:assert/strict";
import { type DroppedWindow, ServerGate } from "./server_gate.ts";

function gate(rate: number, maxBytes: number) {
  let now = 10_000;
  const summaries: DroppedWindow[] = [];
  const timers: (() => void)[] = [];
  const g = new ServerGate({
    rate,
    maxBytes,
    summary: (d) => summaries.push(d),
    now: () => now,
    later: (fn) => timers.push(fn),
  });
  return { g, summaries, timers, tick: (ms: number) => (now += ms) };
}

Deno.test("ServerGate admits `rate` records a window per server and counts the rest in one summary", () => {
  const { g, summaries, tick } = gate(3, 100);
  const admitted = Array.from({ length: 10 }, () => g.admit("a", 10)).filter(Boolean).length;
  assert.equal(admitted, 3);
  assert.ok(g.admit("b", 10), "another server has its own allowance");
  assert.equal(summaries.length, 0, "no summary before the window ends");
  tick(1000);
  assert.ok(g.admit("a", 10), "a new window admits again");
  assert.equal(summaries.length, 1);
  assert.deepEqual(
    {
      server: summaries[0].server,
      overRate: summaries[0].overRate,
      overSize: summaries[0].overSize,
    },
    { server: "a", overRate: 7, overSize: 0 },
  );
});

Deno.test("ServerGate drops a record over maxBytes, and sizes only what the rate admits", () => {
  const { g, summaries, timers } = gate(1, 100);
  assert.equal(g.admit("a", 101), false);
  let sized = 0;
  assert.ok(g.admit("a", () => (sized++, 50)));
  assert.equal(g.admit("a", () => (sized++, 50)), false);
  assert.equal(sized, 1, "a record over the rate is not encoded to be measured");
  assert.equal(timers.length, 1, "one summary scheduled for the window");
  timers[0]();
  assert.deepEqual([summaries[0].overRate, summaries[0].overSize], [1, 1]);
  g.flushAll();
  assert.equal(summaries.length, 1, "a window is summarised once");
});
