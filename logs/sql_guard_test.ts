import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { isBlankSql, prepareQuery, READ_PRAGMAS, SqlRefusedError } from "./sql_guard.ts";

/** A read-only database with one table, as `mcpx log sql` opens the index. */
async function fixture(): Promise<{ db: DatabaseSync; dir: string } & Disposable> {
  const dir = await Deno.makeTempDir({ prefix: "mcpx_sql_guard_" });
  const writer = new DatabaseSync(`${dir}/index.db`);
  writer.exec("CREATE TABLE records (id TEXT, n INTEGER); INSERT INTO records VALUES ('a', 1)");
  writer.close();
  const db = new DatabaseSync(`${dir}/index.db`, { readOnly: true });
  db.exec("PRAGMA query_only = ON");
  return {
    db,
    dir,
    [Symbol.dispose]() {
      db.close();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

function refusal(fn: () => unknown): SqlRefusedError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof SqlRefusedError, String(error));
    return error;
  }
  assert.fail("not refused");
}

Deno.test("prepareQuery() prepares reads: selects, CTEs, views of pragmas, describing pragmas", async () => {
  using f = await fixture();
  for (
    const sql of [
      "SELECT * FROM records",
      "  -- a comment first\nSELECT n FROM records;",
      "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3) SELECT n FROM c",
      "SELECT * FROM pragma_table_info('records')",
      "PRAGMA table_info(records)",
      "EXPLAIN QUERY PLAN SELECT * FROM records",
      "SELECT 1; /* nothing after */ ;",
    ]
  ) {
    assert.ok(prepareQuery(f.db, sql).all().length > 0, sql);
  }
  assert.ok(READ_PRAGMAS.includes("table_info"));
});

Deno.test("prepareQuery() refuses writes, other files, transactions and other pragmas before they run", async (t) => {
  using f = await fixture();
  const cases: [string, RegExp][] = [
    ["DELETE FROM records", /DELETE records would write/],
    ["UPDATE records SET n = 2", /UPDATE records would write/],
    ["INSERT INTO records VALUES ('b', 2)", /INSERT into records would write/],
    ["DROP TABLE records", /CREATE, DROP and ALTER would change the schema/],
    ["CREATE TEMP TABLE scratch (x)", /would change the schema/],
    ["CREATE VIEW v AS SELECT 1", /would change the schema/],
    ["ALTER TABLE records ADD COLUMN y", /would change the schema|ALTER TABLE/],
    [`ATTACH '${"/tmp"}/mcpx-attach.db' AS other`, /opening another database file/],
    ["BEGIN", /transactions are refused/],
    ["SAVEPOINT s", /transactions are refused/],
    [
      "PRAGMA writable_schema = 1",
      /pragma writable_schema = 1 is refused, and nothing was changed/,
    ],
    ["PRAGMA user_version", /pragma user_version is refused/],
    ["VACUUM", /"VACUUM" is not a query, and nothing was run/],
    ["REINDEX", /"REINDEX" is not a query/],
  ];
  for (const [sql, message] of cases) {
    await t.step(sql, () => {
      const error = refusal(() => prepareQuery(f.db, sql));
      assert.equal(error.code, "read-only");
      assert.match(error.message, /^`mcpx log sql` only reads: /);
      assert.match(error.message, message);
    });
  }
  await t.step("VACUUM INTO creates no file", async () => {
    const target = `${f.dir}/copy.db`;
    const error = refusal(() => prepareQuery(f.db, `VACUUM INTO '${target}'`));
    assert.equal(error.code, "read-only");
    await assert.rejects(Deno.stat(target), Deno.errors.NotFound);
  });
});

Deno.test("prepareQuery() refuses a second statement and an empty one, whatever surrounds them", async () => {
  using f = await fixture();
  for (
    const sql of [
      "SELECT 1; SELECT 2",
      "SELECT 1;\n-- c\nDELETE FROM records",
      "SELECT 1 /* x */; x",
    ]
  ) {
    const error = refusal(() => prepareQuery(f.db, sql));
    assert.equal(error.code, "sql-statements", sql);
    assert.match(error.message, /runs one statement, and text follows the first one/);
  }
  for (const sql of ["", "  ", "-- only a comment", "/* c */ ;"]) {
    assert.equal(
      refusal(() => prepareQuery(f.db, sql)).code,
      "sql-statements",
      JSON.stringify(sql),
    );
  }
  assert.ok(isBlankSql(" ; -- x\n/* y */") && !isBlankSql("-- x\nSELECT 1"));
  // A semicolon inside a string is part of the one statement.
  assert.equal(prepareQuery(f.db, "SELECT 'a;b' AS s").get()?.s, "a;b");
});

Deno.test("prepareQuery() leaves SQLite's own errors as they are", async () => {
  using f = await fixture();
  assert.throws(() => prepareQuery(f.db, "SELEC 1"), /syntax error/);
  assert.throws(() => prepareQuery(f.db, "SELECT * FROM nope"), /no such table: nope/);
});
