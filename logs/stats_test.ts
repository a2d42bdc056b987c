import assert from "node:assert/strict";
import { lines, recordMaker, tmpLogs } from "./_fixtures.ts";
import { openIngested } from "./ingest.ts";
import { callsView, errorsView, instancesView, rank, sessionsView, slowestView } from "./stats.ts";
import { chainOf } from "./query.ts";

Deno.test("rank() is the nearest rank", () => {
  const cases: [number, number, number][] = [[50, 1, 1], [50, 10, 5], [50, 11, 6], [95, 20, 19], [
    99,
    20,
    20,
  ], [99, 101, 100]];
  for (const [p, n, k] of cases) assert.equal(rank(p, n), k, `p${p} of ${n}`);
});

/** A daemon, one instance, and calls of fs.read taking `durations` ms; two fail. */
async function world(durations: number[]) {
  const tmp = await tmpLogs();
  const make = recordMaker();
  const records = [
    make("info", "daemon.start", "daemon {pid} started", { pid: 1 }, "dmn-000000000001"),
    make(
      "info",
      "server.start",
      "server {server} started as pid {pid}",
      {
        server: "fs",
        pid: 2,
        key: "global",
      },
      "ins-000000000001",
      "dmn-000000000001",
    ),
  ];
  durations.forEach((ms, i) => {
    const span = `cal-${String(i).padStart(12, "0")}`;
    const about = { namespace: "files", server: "fs", tool: "read", instance: "ins-000000000001" };
    records.push(
      make("info", "call.start", "{namespace}.{tool} called", about, span, "ins-000000000001"),
    );
    const failed = i === 3 || i === 7;
    records.push(
      failed
        ? make("warn", "call.end", "{namespace}.{tool} failed after {ms} ms: {error}", {
          ...about,
          ms,
          ok: false,
          error: `files.read did not answer within ${100 + i} ms`,
          session: "s1",
        }, span)
        : make("info", "call.end", "{namespace}.{tool} answered in {ms} ms", {
          ...about,
          ms,
          ok: true,
          session: i % 2 ? "s1" : "s2",
        }, span),
    );
  });
  records.push(make("info", "server.exit", "server {server} exited ({why})", {
    server: "fs",
    why: "idle",
    code: 0,
    uptimeMs: 5000,
    calls: durations.length,
  }, "ins-000000000001"));
  Deno.writeTextFileSync(`${tmp.dir}/2026-10-01_t_0.jsonl`, lines(records));
  const { db } = openIngested(tmp.dir);
  return {
    db,
    async [Symbol.asyncDispose]() {
      db.close();
      await tmp[Symbol.asyncDispose]();
    },
  };
}

Deno.test("callsView() gives exact nearest-rank percentiles, from the index and from a range", async () => {
  // 20 durations, shuffled: sorted they are 5, 10, …, 100.
  const durations = [
    35,
    100,
    5,
    60,
    20,
    85,
    45,
    10,
    95,
    70,
    25,
    55,
    90,
    15,
    65,
    40,
    80,
    30,
    75,
    50,
  ];
  await using w = await world(durations);
  const expected = {
    server: "fs",
    namespace: "files",
    tool: "read",
    calls: 20,
    errors: 2,
    p50: 50,
    p95: 95,
    p99: 100,
    max: 100,
  };
  assert.deepEqual(callsView(w.db), [expected]);
  assert.deepEqual(callsView(w.db, Date.parse("2026-01-01T00:00:00Z")), [expected]);
  assert.deepEqual(callsView(w.db, Date.parse("2027-01-01T00:00:00Z")), []);
});

Deno.test("errorsView() groups failures that differ only in values under one template", async () => {
  await using w = await world([1, 2, 3, 4, 5, 6, 7, 8]);
  const errors = errorsView(w.db);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].template, "files.read did not answer within {n} ms");
  assert.equal(errors[0].count, 2);
  assert.deepEqual(errors[0].where, ["fs.read"]);
  assert.equal(
    errors[0].example.msg,
    "files.read failed after 8 ms: files.read did not answer within 107 ms",
  );
});

Deno.test("slowest, instances and sessions views read the calls and the process", async () => {
  await using w = await world([30, 10, 20]);
  assert.deepEqual(slowestView(w.db, 0, 2).map((c) => [c.call, c.ms]), [
    ["cal-000000000000", 30],
    ["cal-000000000002", 20],
  ]);
  const [instance] = instancesView(w.db);
  assert.equal(instance.instance, "ins-000000000001");
  assert.equal(instance.why, "idle");
  assert.equal(instance.uptimeMs, 5000);
  assert.equal(instance.calls, 3);
  assert.equal(instance.daemon, "dmn-000000000001");
  const sessions = sessionsView(w.db);
  assert.deepEqual(sessions.map((s) => [s.session, s.calls]).sort(), [["s1", 1], ["s2", 2]]);
});

Deno.test("chainOf() walks from a call up to the daemon, oldest first", async () => {
  await using w = await world([5, 6]);
  const chain = chainOf(w.db, "cal-000000000001");
  assert.deepEqual(chain.map((e) => [e.depth, e.record.event]), [
    [0, "daemon.start"],
    [1, "server.start"],
    [2, "call.start"],
    [2, "call.end"],
  ]);
  const byRecordId = chainOf(w.db, chain[3].record.id);
  assert.deepEqual(byRecordId, chain, "a record id finds its span's chain");
  assert.deepEqual(chainOf(w.db, "cal-nothing"), []);
});

Deno.test("callsView() stays exact as records arrive and as files go", async () => {
  await using tmp = await tmpLogs();
  const make = recordMaker();
  const end = (ms: number, ok = true) =>
    make(ok ? "info" : "warn", "call.end", "done", { server: "fs", tool: "read", ms, ok }, "cal-1");
  Deno.writeTextFileSync(`${tmp.dir}/2026-10-01_a_0.jsonl`, lines([end(5), end(1, false)]));
  Deno.writeTextFileSync(`${tmp.dir}/2026-10-01_b_0.jsonl`, lines([end(9)]));
  const rows = () => {
    const { db } = openIngested(tmp.dir);
    try {
      return callsView(db).map(({ calls, errors, p50, max }) => ({ calls, errors, p50, max }));
    } finally {
      db.close();
    }
  };
  assert.deepEqual(rows(), [{ calls: 3, errors: 1, p50: 5, max: 9 }]);
  Deno.writeTextFileSync(`${tmp.dir}/2026-10-01_a_0.jsonl`, lines([end(7), end(20)]), {
    append: true,
  });
  assert.deepEqual(rows(), [{ calls: 5, errors: 1, p50: 7, max: 20 }]);
  Deno.removeSync(`${tmp.dir}/2026-10-01_a_0.jsonl`);
  assert.deepEqual(rows(), [{ calls: 1, errors: 0, p50: 9, max: 9 }]);
});
