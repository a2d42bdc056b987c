/**
 * The durable log through the real CLI and daemon: calls made with `mcpx
 * call` are read back with `mcpx log` and `mcpx stats` (spec 000, "Reading
 * the log"). One world, one daemon, the misbehaving fixture server (its
 * `sleep {ms}` tool takes known durations).
 */

import assert from "node:assert/strict";
import { backgroundMcpx, eventually, fixtureServer, world } from "./_helpers.ts";

const SECRET = "sekret-value-0123456789";

Deno.test("mcpx log and mcpx stats answer from the records of real calls", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      // The fixture ignores the extra argument; it carries the env value into the command line.
      slow: fixtureServer({ extraArgs: [`--token=${SECRET}`], env: { FIXTURE_TOKEN: SECRET } }),
    },
  });
  const logs = `${w.dir}/.state/mcpx/logs`;
  const callEnds = async (tool: string) =>
    (await w.json(["log", "--event", "call.end", "-n", "1000"])).records
      .filter((r: { attrs: { tool: string } }) => r.attrs.tool === tool);

  await t.step("percentiles are exact nearest ranks of the recorded durations", async () => {
    const sleeps = Array.from({ length: 20 }, (_, i) => (i + 1) * 10);
    for (let i = 0; i < sleeps.length; i += 5) {
      const batch = await Promise.all(
        sleeps.slice(i, i + 5).map((ms) => w.mcpx(["call", "slow.sleep", JSON.stringify({ ms })])),
      );
      for (const r of batch) assert.equal(r.code, 0, r.stderr);
    }
    const ms = (await callEnds("sleep")).map((r: { attrs: { ms: number } }) => r.attrs.ms)
      .sort((a: number, b: number) => a - b);
    assert.equal(ms.length, 20);
    const stats = await w.json(["stats", "calls"]);
    const row = stats.rows.find((r: { tool: string }) => r.tool === "sleep");
    assert.equal(row.calls, 20);
    assert.equal(row.errors, 0);
    // Nearest rank of 20: p50 is the 10th, p95 the 19th, p99 the 20th.
    assert.equal(row.p50, ms[9]);
    assert.equal(row.p95, ms[18]);
    assert.equal(row.p99, ms[19]);
    assert.equal(row.max, ms[19]);
    // Each call took at least its sleep, so the k-th duration is at least the k-th sleep.
    assert.ok(row.p50 >= 100 && row.p95 >= 190 && row.p99 >= 200, JSON.stringify(row));
  });

  await t.step("--chain reaches the daemon from a call", async () => {
    const slowest = await w.json(["stats", "slowest", "-n", "1"]);
    const call = slowest.rows[0].call;
    assert.match(call, /^cal-/);
    const { chain } = await w.json(["log", "--chain", call]);
    assert.deepEqual(
      chain.map((e: { depth: number; record: { event: string } }) => [e.depth, e.record.event]),
      [[0, "daemon.start"], [1, "server.start"], [2, "call.start"], [2, "call.end"]],
    );
    assert.equal(chain[1].record.parent, chain[0].record.span, "the instance names its daemon");
    assert.equal(chain[2].record.parent, chain[1].record.span, "the call names its instance");
    assert.equal(chain[0].record.parent, undefined, "only creating records carry a parent");
    assert.equal(chain[3].record.parent, undefined);
    const text = await w.mcpx(["log", "--chain", call]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^\S.*daemon\.start.*\n {2}\S.*server\.start.*\n {4}\S.*call\.start/);
    const recent = await w.json(["log", "--chain"]);
    assert.ok(recent.calls.some((c: { call: string }) => c.call === call));
  });

  await t.step("errors groups failures that differ only in values under one template", async () => {
    for (const timeout of ["100ms", "150ms"]) {
      const r = await w.mcpx(["call", "--timeout", timeout, "slow.sleep", '{"ms":3000}']);
      assert.equal(r.code, 1);
    }
    const { rows } = await w.json(["stats", "errors"]);
    const timeouts = rows.filter((r: { template: string }) => /did not answer/.test(r.template));
    assert.equal(timeouts.length, 1, JSON.stringify(rows));
    assert.equal(timeouts[0].count, 2);
    assert.match(timeouts[0].template, /^slow\.sleep did not answer within \{n\} ms/);
    assert.deepEqual(timeouts[0].where, ["slow.sleep"]);
  });

  await t.step("a value given in a server's env never reaches a record", async () => {
    const starts = await w.json(["log", "--event", "server.start"]);
    // The literal value shows as the place it is written (decision 0017).
    assert.match(
      starts.records[0].attrs.command,
      /--token=\$\{mcpServers\.slow\.env\.FIXTURE_TOKEN\}/,
    );
    for (const entry of Deno.readDirSync(logs)) {
      if (!entry.name.endsWith(".jsonl")) continue;
      assert.ok(!Deno.readTextFileSync(`${logs}/${entry.name}`).includes(SECRET), entry.name);
    }
  });

  await t.step("-f prints a record written after it started", async () => {
    const marker = "follow-marker-7";
    await using follower = backgroundMcpx(w, [
      "log",
      "-f",
      "--json",
      "--event",
      "call.end",
      "-n",
      "1",
    ]);
    try {
      // It has started once it printed the newest existing call.
      assert.ok(await eventually(() => follower.output().includes('"call.end"'), 20_000));
      assert.ok(!follower.output().includes(marker));
      const r = await w.mcpx(["call", "--session", marker, "slow.echo", '{"text":"x"}']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(
        await eventually(() => follower.output().includes(marker), 10_000),
        `the new record did not arrive:\n${follower.output()}`,
      );
      const line = follower.output().split("\n").find((l) => l.includes(marker))!;
      assert.equal(JSON.parse(line).attrs.session, marker, "one record per line");
    } finally {
      await follower[Symbol.asyncDispose]();
    }
  });

  await t.step("a deleted index.db is rebuilt with the same answers", async () => {
    const ask = async () => ({
      records: await w.json(["log", "-n", "1000"]),
      calls: await w.json(["stats", "calls"]),
      errors: await w.json(["stats", "errors"]),
      instances: await w.json(["stats", "instances"]),
      sessions: await w.json(["stats", "sessions"]),
    });
    const before = await ask();
    await Deno.remove(`${logs}/index.db`);
    assert.deepEqual(await ask(), before);
  });

  await t.step("a torn last line is skipped until it is complete", async () => {
    const count = async () => (await w.json(["log", "-n", "100000"])).records.length;
    const before = await count();
    const file = `${logs}/2026-01-01_test-torn_0.jsonl`;
    const line = JSON.stringify({
      time: "2026-01-01T00:00:00.000Z",
      level: "info",
      event: "test.torn",
      msg: "whole at last",
      template: "whole at last",
      id: "torn000000000000001",
      span: "run-000000000001",
      attrs: {},
    });
    await Deno.writeTextFile(file, line.slice(0, 50));
    assert.equal(await count(), before, "half a line is not a record");
    await Deno.writeTextFile(file, line.slice(50) + "\n", { append: true });
    assert.equal(await count(), before + 1);
    const torn = await w.json(["log", "--event", "test.torn"]);
    assert.equal(torn.records[0].msg, "whole at last");
  });

  await t.step("log sql reads, and refuses anything that is not a read", async () => {
    const ok = await w.json(["log", "sql", "SELECT count(*) AS n FROM records"]);
    assert.deepEqual(ok.columns, ["n"]);
    assert.ok(ok.rows[0][0] > 40);
    for (
      const statement of [
        "DELETE FROM records",
        "DROP TABLE records",
        "CREATE TEMP TABLE scratch (x)",
        "UPDATE files SET offset = 0",
      ]
    ) {
      const refused = await w.mcpx(["log", "sql", statement]);
      assert.equal(refused.code, 1, statement);
      assert.match(refused.stderr, /only reads/, statement);
    }
    const after = await w.json(["log", "sql", "SELECT count(*) AS n FROM records"]);
    assert.deepEqual(after.rows, ok.rows, "nothing was written");
    const schema = await w.mcpx(["log", "sql", "--schema"]);
    assert.match(schema.stdout, /CREATE TABLE records/);
    const path = await w.mcpx(["log", "sql", "--path"]);
    assert.equal(path.stdout, `${logs}/index.db\n`);
  });
});
