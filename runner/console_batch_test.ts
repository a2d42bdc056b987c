import assert from "node:assert/strict";
import type { LogRecord } from "../logs/record.ts";
import { BATCH_MAX_BYTES, CONSOLE_EVENT, CONSOLE_TEMPLATE, ConsoleBatch } from "./console_batch.ts";

let n = 0;
const line = (msg: string, level: LogRecord["level"] = "info", attrs = {}): LogRecord => ({
  time: new Date(Date.UTC(2026, 9, 1, 0, 0, 0, n)).toISOString(),
  level,
  event: "log",
  msg,
  template: msg,
  id: String(n++).padStart(20, "0"),
  span: "run-0123456789ab",
  attrs,
});

Deno.test("ConsoleBatch writes consecutive console lines of one level as one record, in order", () => {
  const out: LogRecord[] = [];
  const batch = new ConsoleBatch((r) => out.push(r));
  const first = line("a", "info", { fileOnly: true });
  batch.add(first, true);
  batch.add(line("b", "info", { fileOnly: true, args: [1] }), true);
  batch.add(line("c", "info"), true); // on stderr, not file-only: another batch
  batch.add(line("own {x}", "info", { x: 1 }), false); // the script's own log(): never batched
  batch.add(line("d", "warn", { source: { file: "s.ts" } }), true); // a call site: its own record
  batch.add(line("e", "warn"), true);
  batch.flush();
  assert.deepEqual(out.map((r) => [r.event, r.msg, r.attrs]), [
    [CONSOLE_EVENT, "a\nb", { lines: 2, fileOnly: true }],
    [CONSOLE_EVENT, "c", { lines: 1 }],
    ["log", "own {x}", { x: 1 }],
    ["log", "d", { source: { file: "s.ts" } }],
    [CONSOLE_EVENT, "e", { lines: 1 }],
  ]);
  assert.deepEqual([out[0].time, out[0].id, out[0].template], [
    first.time,
    first.id,
    CONSOLE_TEMPLATE,
  ]);
});

Deno.test("ConsoleBatch writes a batch once it holds BATCH_MAX_BYTES", () => {
  const out: LogRecord[] = [];
  const batch = new ConsoleBatch((r) => out.push(r));
  const text = "x".repeat(1023);
  for (let i = 0; i < BATCH_MAX_BYTES / 1024 + 1; i++) batch.add(line(text), true);
  assert.equal(out.length, 1, "the full batch was written without waiting");
  assert.equal(out[0].attrs.lines, BATCH_MAX_BYTES / 1024);
  batch.flush();
  assert.equal(out.length, 2);
});
