import assert from "node:assert/strict";
import { lines, recordMaker, tmpLogs } from "./_fixtures.ts";
import { ingest, openIngested } from "./ingest.ts";
import { indexPath, openIndex } from "./index_db.ts";
import { findRecords } from "./query.ts";
import type { LogRecord } from "./record.ts";

const FILE = "2026-10-01_daemon-t-1_0.jsonl";

function someRecords(n: number): LogRecord[] {
  const make = recordMaker();
  return Array.from(
    { length: n },
    (_, i) =>
      make("info", "call.end", "{namespace}.{tool} answered in {ms} ms", {
        namespace: "fs",
        server: "fs",
        tool: "read",
        ms: i,
        ok: true,
      }, `cal-${String(i).padStart(12, "0")}`),
  );
}

function count(db: ReturnType<typeof openIndex>): number {
  return (db.prepare("SELECT count(*) AS n FROM records").get() as { n: number }).n;
}

Deno.test("ingest() skips unchanged files, reads a grown file from where it stopped", async () => {
  await using tmp = await tmpLogs();
  const path = `${tmp.dir}/${FILE}`;
  const records = someRecords(5);
  Deno.writeTextFileSync(path, lines(records.slice(0, 3)));
  const db = openIndex(indexPath(tmp.dir));
  try {
    assert.deepEqual(ingest(db, tmp.dir), {
      files: 1,
      opened: 1,
      records: 3,
      malformed: 0,
      removed: 0,
    });
    assert.equal(ingest(db, tmp.dir).opened, 0, "an unchanged file is not opened");
    Deno.writeTextFileSync(path, lines(records.slice(3)), { append: true });
    const grown = ingest(db, tmp.dir);
    assert.equal(grown.opened, 1);
    assert.equal(grown.records, 2, "only the new lines are read");
    assert.equal(count(db), 5);
  } finally {
    db.close();
  }
});

Deno.test("ingest() leaves a torn last line until it is complete", async () => {
  await using tmp = await tmpLogs();
  const path = `${tmp.dir}/${FILE}`;
  const [a, b] = lines(someRecords(2)).split("\n");
  Deno.writeTextFileSync(path, `${a}\n${b.slice(0, 40)}`);
  const db = openIndex(indexPath(tmp.dir));
  try {
    assert.equal(ingest(db, tmp.dir).records, 1);
    assert.equal(count(db), 1, "half a line is never indexed");
    Deno.writeTextFileSync(path, `${b.slice(40)}\n`, { append: true });
    assert.equal(ingest(db, tmp.dir).records, 1);
    const { records } = findRecords(db, {});
    assert.deepEqual(records.map((r) => r.record.attrs.ms), [0, 1]);
  } finally {
    db.close();
  }
});

Deno.test("ingest() skips lines that are not records and forgets files that are gone", async () => {
  await using tmp = await tmpLogs();
  const good = lines(someRecords(2));
  Deno.writeTextFileSync(`${tmp.dir}/${FILE}`, `not json\n{"time":"x"}\n${good}\n`);
  Deno.writeTextFileSync(`${tmp.dir}/2026-10-01_other_0.jsonl`, lines(someRecords(3)));
  const db = openIndex(indexPath(tmp.dir));
  try {
    const first = ingest(db, tmp.dir);
    assert.equal(first.records, 5);
    assert.equal(first.malformed, 2);
    Deno.removeSync(`${tmp.dir}/2026-10-01_other_0.jsonl`);
    assert.equal(ingest(db, tmp.dir).removed, 1);
    assert.equal(count(db), 2);
  } finally {
    db.close();
  }
});

Deno.test("ingest() reads a record whose strings hold escapes and whose keys come in another order", async () => {
  await using tmp = await tmpLogs();
  const [record] = someRecords(1);
  record.msg = 'said "hi" \\ then\nleft';
  record.template = 'said "{x}"';
  const reordered = JSON.stringify({
    attrs: { a: 1 },
    id: "x1",
    span: "s",
    msg: "m",
    time: record.time,
  });
  Deno.writeTextFileSync(`${tmp.dir}/${FILE}`, `${lines([record])}${reordered}\n`);
  const db = openIndex(indexPath(tmp.dir));
  try {
    assert.equal(ingest(db, tmp.dir).records, 2);
    const { records } = findRecords(db, {});
    assert.deepEqual(records[0].record, record);
    assert.equal(records[1].record.msg, "m");
    assert.equal(records[1].record.event, "log");
    assert.deepEqual(records[1].record.attrs, { a: 1 });
  } finally {
    db.close();
  }
});

Deno.test("openIngested() rebuilds a deleted or damaged index with the same rows", async () => {
  await using tmp = await tmpLogs();
  Deno.writeTextFileSync(`${tmp.dir}/${FILE}`, lines(someRecords(50)));
  const read = () => {
    const { db } = openIngested(tmp.dir);
    try {
      return findRecords(db, {}).records.map((r) => r.record);
    } finally {
      db.close();
    }
  };
  const before = read();
  Deno.removeSync(indexPath(tmp.dir));
  assert.deepEqual(read(), before);
  Deno.writeTextFileSync(indexPath(tmp.dir), "this is not a database, it only has the name of one");
  assert.deepEqual(read(), before);
});
