import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { runQuery } from "./sql_query.ts";

const FOREVER = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) ";

Deno.test("runQuery() stops at maxRows and says so; an answer that fits says nothing", () => {
  const db = new DatabaseSync(":memory:");
  const cut = runQuery(db, `${FOREVER}SELECT n FROM c`, { maxRows: 3, maxBytes: 1 << 20 });
  assert.deepEqual(cut.rows, [[1], [2], [3]]);
  assert.deepEqual(cut.stopped, { limit: "rows", rows: 3, setting: "log.sqlMaxRows", max: 3 });
  const whole = runQuery(db, `${FOREVER}SELECT n FROM c LIMIT 3`, {
    maxRows: 3,
    maxBytes: 1 << 20,
  });
  assert.equal(whole.stopped, undefined);
});

Deno.test("runQuery() stops before the answer passes maxBytes", () => {
  const db = new DatabaseSync(":memory:");
  const answer = runQuery(db, `${FOREVER}SELECT printf('%.*c', 100, 'x') AS s FROM c`, {
    maxRows: 1000,
    maxBytes: 1024,
  });
  assert.equal(answer.stopped?.limit, "bytes");
  assert.equal(answer.stopped?.setting, "log.sqlMaxBytes");
  assert.ok(answer.rows.length > 0 && JSON.stringify(answer.rows).length <= 1024);
});

Deno.test("runQuery() reports an error met while stepping, never a short answer", () => {
  const db = new DatabaseSync(":memory:");
  const limits = { maxRows: 10, maxBytes: 1024 };
  assert.throws(
    () => runQuery(db, "SELECT 1 UNION ALL SELECT abs(-9223372036854775808)", limits),
    /integer overflow/,
  );
  assert.throws(() => runQuery(db, "SELECT zeroblob(4096)", limits), /too big/);
});

Deno.test("runQuery() keeps the statement's order, column names and duplicate columns", () => {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE t (x); INSERT INTO t VALUES (2), (3), (1)");
  const answer = runQuery(db, "SELECT x, x AS x, x * 10 FROM t ORDER BY x DESC -- trailing", {
    maxRows: 10,
    maxBytes: 1024,
  });
  assert.deepEqual(answer.columns, ["x", "x", "x * 10"]);
  assert.deepEqual(answer.rows, [[3, 3, 30], [2, 2, 20], [1, 1, 10]]);
  const pragma = runQuery(db, "PRAGMA table_info(t)", { maxRows: 10, maxBytes: 1024 });
  assert.equal(pragma.rows[0][1], "x");
});
