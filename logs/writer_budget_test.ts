/**
 * The log directory's budget (setting `logging.maxDirSize`, decision 0063):
 * however much is written, and with index.db rebuilt along the way, the
 * directory never holds more than the budget, the oldest files go first, and
 * the index answers only for the files that are left.
 */

import assert from "node:assert/strict";
import { encodeRecord } from "./record.ts";
import { listLogFiles, LogWriter } from "./writer.ts";
import { openIngested } from "./ingest.ts";
import { recordMaker, tmpLogs } from "./_fixtures.ts";
import { keepDirBudget } from "./dir_budget.ts";

const MiB = 1 << 20;

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isFile) total += Deno.statSync(`${dir}/${entry.name}`).size;
  }
  return total;
}

Deno.test("LogWriter keeps the log directory under maxDirSize, index.db included, oldest files first", async () => {
  await using logs = await tmpLogs();
  const budget = 2 * MiB;
  using w = new LogWriter({
    dir: logs.dir,
    source: "daemon-flood",
    maxFileSize: 10 * MiB,
    retentionMs: 0,
    maxDirSize: budget,
  });
  const make = recordMaker();
  const text = "x".repeat(1000);
  let written = 0;
  let largest = 0;
  let n = 0;
  // 20 MiB of server log messages, ten times the budget; the index is brought up to date each MiB.
  while (written < 20 * MiB) {
    const line = encodeRecord(
      make(
        "info",
        "server.message",
        "{server}: {text}",
        { server: "flood", text, n: n++ },
        "ins-1",
      ),
    );
    w.write(line);
    written += line.length;
    if (n % 1000 === 0) {
      const { db } = openIngested(logs.dir);
      const files = listLogFiles(logs.dir).length;
      const indexed = db.prepare("SELECT count(*) AS n FROM files").get()!.n;
      db.close();
      assert.equal(indexed, files, "the index knows exactly the files that are left");
      largest = Math.max(largest, dirBytes(logs.dir));
      assert.ok(largest <= budget, `the directory holds ${largest} bytes, over ${budget}`);
    }
  }
  const { db } = openIngested(logs.dir);
  const oldest = db.prepare("SELECT min(json_extract(attrs, '$.n')) AS n FROM records").get()!
    .n as number;
  const newest = db.prepare("SELECT max(json_extract(attrs, '$.n')) AS n FROM records").get()!
    .n as number;
  db.close();
  assert.equal(newest, n - 1, "the newest record is kept");
  assert.ok(oldest > 0, "the oldest records went first");
  console.log(
    `  wrote ${(written / MiB).toFixed(1)} MiB with a ${budget / MiB} MiB budget: the directory ` +
      `peaked at ${
        (largest / MiB).toFixed(2)
      } MiB (index.db included); records ${oldest}–${newest} kept`,
  );
});

Deno.test("LogWriter.fileLimit is a tenth of maxDirSize when that is below maxFileSize", () => {
  const w = new LogWriter({
    dir: "/nonexistent",
    source: "t",
    maxFileSize: 10 * MiB,
    retentionMs: 0,
    maxDirSize: 2 * MiB,
  });
  assert.equal(w.fileLimit, Math.floor(0.2 * MiB));
  assert.equal(
    new LogWriter({ dir: "/x", source: "t", maxFileSize: MiB, retentionMs: 0 }).fileLimit,
    MiB,
  );
});

Deno.test("keepDirBudget removes a damaged index's moved-aside copy before any log file", async () => {
  await using logs = await tmpLogs();
  const aside = `${logs.dir}/index.db.damaged-2026-01-01T00-00-00-000Z`;
  Deno.writeFileSync(aside, new Uint8Array(3 * MiB));
  const log = `${logs.dir}/2026-01-02-daemon-1.jsonl`;
  Deno.writeFileSync(log, new Uint8Array(100_000));
  const removed = keepDirBudget(logs.dir, { budget: 2 * MiB, room: 0, writing: "" });
  assert.deepEqual(removed, ["index.db.damaged-2026-01-01T00-00-00-000Z"]);
  assert.ok(Deno.statSync(log).isFile, "the log file is kept");
  assert.ok(dirBytes(logs.dir) <= 2 * MiB);
});
