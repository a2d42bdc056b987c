import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ProgressLog, type ProgressNote } from "./progress_log.ts";

function clocked() {
  let t = 0;
  const written: ProgressNote[] = [];
  const log = new ProgressLog((n) => written.push(n), { intervalMs: 1000, now: () => t });
  return { log, written, at: (ms: number) => t = ms };
}

Deno.test("ProgressLog writes the first notification at once and one per interval after it", () => {
  const { log, written, at } = clocked();
  for (let i = 1; i <= 3000; i++) {
    at(i); // 3000 notifications over 3 s
    log.note({ progress: i, total: 3000 });
  }
  log.finish();
  assertEquals(written.map((n) => [n.progress, n.count, n.skipped]), [
    [1, 1, 0],
    [1001, 1001, 999],
    [2001, 2001, 999],
    [3000, 3000, 998],
  ]);
  assertEquals(log.count, 3000);
});

Deno.test("ProgressLog writes every notification that arrives an interval apart, and nothing more at finish", () => {
  const { log, written, at } = clocked();
  for (let i = 1; i <= 5; i++) {
    at(i * 2000);
    log.note({ progress: i, total: 5, message: "step" });
  }
  log.finish();
  assertEquals(written.length, 5);
  assertEquals(written.every((n) => n.skipped === 0 && n.message === "step"), true);
});

Deno.test("ProgressLog.finish writes nothing for a call without progress, and bounds messages", () => {
  const { log, written } = clocked();
  log.finish();
  assertEquals(written.length, 0);
  log.note({ progress: 1, message: "x".repeat(10_000) });
  assertEquals(written[0].message?.length, 300);
});
