import assert from "node:assert/strict";
import { lines, recordMaker, tmpLogs } from "./_fixtures.ts";
import { openIngested } from "./ingest.ts";
import { findRecords } from "./query.ts";
import { parseSince } from "./since.ts";

Deno.test("findRecords() filters by level, event glob, server, session, grep and time", async () => {
  await using tmp = await tmpLogs();
  const make = recordMaker(Date.parse("2026-10-01T12:00:00.000Z"));
  Deno.writeTextFileSync(
    `${tmp.dir}/2026-10-01_t_0.jsonl`,
    lines([
      make("info", "server.start", "server {server} started", { server: "a" }, "ins-1", "dmn-1"),
      make("warn", "server.exit", "server {server} exited", { server: "a", why: "crash" }, "ins-1"),
      make("info", "call.end", "ok", { server: "b", session: "k1", note: "timed out" }, "cal-1"),
      make("error", "daemon.error", "boom", {}, "dmn-1", undefined, 3_600_000),
    ]),
  );
  const { db } = openIngested(tmp.dir);
  try {
    const events = (q: Parameters<typeof findRecords>[1]) =>
      findRecords(db, q).records.map((r) => r.record.event);
    assert.deepEqual(events({ level: "warn" }), ["server.exit", "daemon.error"]);
    assert.deepEqual(events({ events: ["server.*"] }), ["server.start", "server.exit"]);
    assert.deepEqual(events({ server: "a", events: ["*.exit"] }), ["server.exit"]);
    assert.deepEqual(events({ session: "k1" }), ["call.end"]);
    assert.deepEqual(events({ grep: /timed out/ }), ["call.end"], "attributes are searched");
    assert.deepEqual(events({ grep: /^boom$/ }), ["daemon.error"], "messages are searched");
    assert.deepEqual(events({ since: Date.parse("2026-10-01T12:30:00Z") }), ["daemon.error"]);
    assert.deepEqual(
      events({ limit: 2 }),
      ["call.end", "daemon.error"],
      "the newest, oldest first",
    );
    const { lastSeq } = findRecords(db, {});
    assert.deepEqual(events({ afterSeq: lastSeq - 1 }), ["daemon.error"]);
  } finally {
    db.close();
  }
});

Deno.test("parseSince() reads durations and times, and refuses the rest", () => {
  const now = Date.parse("2026-10-01T12:00:00Z");
  assert.equal(parseSince("90s", now), now - 90_000);
  assert.equal(parseSince("2d", now), now - 2 * 86_400_000);
  assert.equal(parseSince("2026-10-01T10:00:00Z", now), Date.parse("2026-10-01T10:00:00Z"));
  assert.equal(parseSince("2026-10-01", now), new Date(2026, 9, 1).getTime());
  assert.throws(() => parseSince("yesterday", now), /neither a duration nor a time/);
  assert.throws(() => parseSince("15", now), RangeError);
});
