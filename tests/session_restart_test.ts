/**
 * A named session with a TTL survives `mcpx stop` and a new daemon (issue 29;
 * spec 000, "Named, pinned and resumable sessions"): its record (name,
 * created time, TTL) is intact, its instance is re-created on first use, and
 * a server that persists its state per session (tests/fixtures/servers/
 * counter.ts with `COUNTER_DIR`) carries on where it was.
 */
import assert from "node:assert/strict";
import { fixtureServer, type World, world } from "./_helpers.ts";

interface Bump {
  count: number;
  pid: number;
  startedFrom: number;
}

interface Row {
  name: string;
  createdAt: string;
  ttlMs?: number;
}

async function bump(w: World, session: string): Promise<Bump> {
  const r = await w.mcpx(["call", "--session", session, "counter.bump", `{"key":"${session}"}`]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

Deno.test("a named session with a ttl keeps its name, record and ttl across mcpx stop, and its server resumes", async () => {
  await using w = await world();
  const counters = `${w.dir}/counters`;
  await Deno.mkdir(counters);
  await w.writeConfig({
    mcpServers: {
      counter: fixtureServer({
        fixture: "counter",
        env: { COUNTER_DIR: counters },
        mcpx: { scope: "session" },
      }),
    },
  });
  const made = await w.json<Row>(["session", "new", "--name", "s", "--ttl", "10m"]);
  assert.equal(made.ttlMs, 600_000);

  const counts: number[] = [];
  let before: Bump | undefined;
  for (let i = 0; i < 3; i++) {
    before = await bump(w, "s");
    counts.push(before.count);
  }
  assert.deepEqual(counts, [1, 2, 3]);

  const stop = await w.mcpx(["stop"]);
  assert.equal(stop.code, 0, stop.stderr);

  const after = await bump(w, "s");
  assert.equal(after.count, 4, "the server read its counter back");
  assert.equal(after.startedFrom, 3);
  assert.notEqual(after.pid, before!.pid, "a new process: the old one stopped with its daemon");

  const rows = await w.json<Row[] | { sessions: Row[] }>(["session", "ls"]);
  const list = Array.isArray(rows) ? rows : rows.sessions;
  const s = list.find((r) => r.name === "s");
  assert.ok(s, `session s listed: ${JSON.stringify(list)}`);
  assert.equal(s.createdAt, made.createdAt, "the record is the one made before the stop");
  assert.equal(s.ttlMs, 600_000);
});
