/**
 * `mcpx log sql` is bounded and reads only (issue 9, "Bounded, and not
 * quadratic"; spec 000, "Reading the log"): a statement that never ends is
 * stopped at `log.sqlTimeout` naming the setting, an answer longer than
 * `log.sqlMaxRows` says where it stopped, `VACUUM INTO` is refused without
 * creating its file, a second statement is an error, and a refused pragma is
 * refused rather than answered with success. Through the real CLI on an index
 * built from a record written the way the daemon writes them.
 */
import assert from "node:assert/strict";
import { world } from "./_helpers.ts";

const FOREVER = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) ";

Deno.test("mcpx log sql stops, refuses and says why", async (t) => {
  await using w = await world();
  const logs = `${w.dir}/.state/mcpx/logs`;
  await Deno.mkdir(logs, { recursive: true });
  await Deno.writeTextFile(
    `${logs}/mcpx-2026-01-01.jsonl`,
    JSON.stringify({
      time: new Date().toISOString(),
      level: "info",
      event: "daemon.start",
      msg: "daemon started",
      template: "daemon started",
      id: "rec-1",
      span: "dmn-1",
      attrs: {},
    }) + "\n",
  );
  const sql = (query: string, flags: string[] = []) =>
    w.mcpx(["--json", ...flags, "log", "sql", query], { timeoutMs: 60_000 });

  await t.step("a read answers", async () => {
    const r = await sql("SELECT count(*) AS n FROM records");
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { columns: ["n"], rows: [[1]] });
  });

  await t.step("a statement that never ends is stopped at log.sqlTimeout", async () => {
    const r = await sql(`${FOREVER}SELECT count(*) FROM c`, ["--log-sql-timeout", "1s"]);
    assert.equal(r.code, 1, r.stderr);
    const { error } = JSON.parse(r.stdout);
    assert.equal(error.code, "timeout");
    assert.equal(error.setting, "log.sqlTimeout");
    assert.equal(error.ms, 1000);
    assert.match(error.message, /longer than log\.sqlTimeout \(1000 ms\) and was stopped/);
    assert.match(r.stderr, /--log-sql-timeout/);
  });

  await t.step("more rows than log.sqlMaxRows: it says it stopped at N rows", async () => {
    const r = await sql(`${FOREVER}SELECT n FROM c`, ["--log-sql-max-rows", "5"]);
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout);
    assert.deepEqual(answer.rows, [[1], [2], [3], [4], [5]]);
    assert.deepEqual(answer.stopped, {
      limit: "rows",
      rows: 5,
      setting: "log.sqlMaxRows",
      max: 5,
    });
    const text = await w.mcpx([
      "--log-sql-max-rows",
      "5",
      "log",
      "sql",
      `${FOREVER}SELECT n FROM c`,
    ]);
    assert.match(text.stderr, /stopped at 5 rows \(log\.sqlMaxRows\)/);
  });

  await t.step(
    "log.sqlMaxBytes holds on what is printed: the indented --json and the padded table",
    async () => {
      const max = 4096;
      const flags = ["--log-sql-max-bytes", String(max)];
      // Compact JSON of 300 rows of four small numbers is ~5 KB; indented, ~4 times that.
      const numbers = `${FOREVER}SELECT n, n, n, n FROM c LIMIT 300`;
      const json = await sql(numbers, flags);
      assert.equal(json.code, 0, json.stderr);
      assert.ok(json.stdout.length <= max, `--json printed ${json.stdout.length} bytes`);
      const answer = JSON.parse(json.stdout);
      assert.equal(answer.stopped.setting, "log.sqlMaxBytes");
      assert.equal(answer.stopped.rows, answer.rows.length);
      assert.ok(answer.rows.length > 10, `${answer.rows.length} rows fit`);
      // One wide cell pads every row of its column: the table is far larger than the JSON.
      const wide = `${FOREVER}SELECT CASE n WHEN 1 THEN printf('%090d', 0) ELSE '' END AS w, n ` +
        `FROM c LIMIT 300`;
      const table = await w.mcpx([...flags, "log", "sql", wide]);
      assert.equal(table.code, 0, table.stderr);
      assert.ok(table.stdout.length <= max, `the table printed ${table.stdout.length} bytes`);
      assert.match(table.stderr, /before what is printed passed 4096 bytes \(log\.sqlMaxBytes\)/);
      // Long values, cut to 100 characters in the table: the rows read passed the bound, not
      // the table, and the note says which (it said "what is printed" of a short table).
      const long = `${FOREVER}SELECT printf('%0500d', n) AS v FROM c LIMIT 300`;
      const cut = await w.mcpx([...flags, "log", "sql", long]);
      assert.equal(cut.code, 0, cut.stderr);
      assert.ok(cut.stdout.length < max / 2, `the table printed ${cut.stdout.length} bytes`);
      assert.match(cut.stderr, /before the rows read, as JSON, passed 4096 bytes/);
    },
  );

  await t.step("VACUUM INTO is refused and creates no file", async () => {
    const target = `${w.dir}/copy.db`;
    const r = await sql(`VACUUM INTO '${target}'`);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(JSON.parse(r.stdout).error.code, "read-only");
    assert.match(r.stderr, /only reads/);
    await assert.rejects(Deno.stat(target), Deno.errors.NotFound, `${target} was created`);
  });

  await t.step("a second statement is an error, not ignored", async () => {
    const r = await sql("SELECT 1; SELECT 2");
    assert.equal(r.code, 1, r.stderr);
    assert.equal(JSON.parse(r.stdout).error.code, "sql-statements");
    assert.match(r.stderr, /runs one statement.*"SELECT 2"/);
    const trailing = await sql("SELECT 1; -- only a comment after it");
    assert.equal(trailing.code, 0, trailing.stderr);
  });

  await t.step(
    "a refused pragma is refused, a pragma that describes the schema answers",
    async () => {
      const r = await sql("PRAGMA writable_schema = 1");
      assert.equal(r.code, 1, r.stderr);
      assert.equal(JSON.parse(r.stdout).error.code, "read-only");
      assert.match(r.stderr, /pragma writable_schema = 1 is refused/);
      const info = await sql("PRAGMA table_info(files)");
      assert.equal(info.code, 0, info.stderr);
      assert.ok(JSON.parse(info.stdout).rows.length >= 4);
    },
  );

  await t.step("a bad limit is an error naming the setting", async () => {
    const r = await w.mcpx(["--log-sql-max-rows", "0", "log", "sql", "SELECT 1"]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /log-sql-max-rows|log\.sqlMaxRows/);
  });
});
