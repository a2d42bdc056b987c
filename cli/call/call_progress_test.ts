import assert from "node:assert/strict";
import { callProgressLine } from "./call_progress.ts";

Deno.test("callProgressLine() shows the amount, the share of a total and the message, bounded", () => {
  const line = (progress: number, total?: number, message?: string, columns = 79) =>
    callProgressLine("ns.job", {
      progress,
      ...(total !== undefined ? { total } : {}),
      ...(message !== undefined ? { message } : {}),
    }, columns);
  assert.equal(line(3, 5, "three"), "ns.job: 3/5 (60%) three");
  assert.equal(line(7), "ns.job: 7");
  assert.equal(line(12, 10), "ns.job: 12/10 (100%)");
  // A server's text cannot drive the terminal, nor break the line.
  assert.equal(line(1, undefined, "a\x1b[2Jb\nc"), "ns.job: 1 a\\u001b[2Jb c");
  assert.equal(line(1, 2, "x".repeat(200), 30).length, 30);
});
