import assert from "node:assert/strict";
import { printedSqlAnswer } from "./log_sql_print.ts";

const rows = Array.from({ length: 500 }, (_, i) => [i === 0 ? "w".repeat(90) : "", i]);
const answer = { columns: ["wide", "n"], rows };

Deno.test("printedSqlAnswer() keeps the most rows whose printed form fits, --json and table alike", () => {
  for (const json of [true, false]) {
    const { text, stopped } = printedSqlAnswer(answer, { json, maxBytes: 4096 });
    assert.ok(text.length <= 4096, `${json ? "--json" : "table"}: ${text.length} bytes`);
    assert.equal(stopped?.limit, "printed");
    assert.equal(stopped?.setting, "log.sqlMaxBytes");
    const shown = json ? JSON.parse(text).rows.length : text.trimEnd().split("\n").length - 1;
    assert.equal(shown, stopped?.rows);
    // One more row would not have fitted.
    const more = printedSqlAnswer({ ...answer, rows: rows.slice(0, shown + 1) }, {
      json,
      maxBytes: 1 << 20,
    });
    assert.ok(more.text.length > 4096 - (json ? 200 : 0), "the cut is at the bound");
  }
});

Deno.test("printedSqlAnswer() prints an answer that fits whole, its own stop kept", () => {
  const stopped = { limit: "rows" as const, rows: 2, setting: "log.sqlMaxRows" as const, max: 2 };
  const { text, stopped: kept } = printedSqlAnswer(
    { columns: ["n"], rows: [[1], [2]], stopped },
    { json: true, maxBytes: 4096 },
  );
  assert.deepEqual(JSON.parse(text), { columns: ["n"], rows: [[1], [2]], stopped });
  assert.deepEqual(kept, stopped);
});
