import assert from "node:assert/strict";
import {
  awaitProcessEnd,
  type GroupRecord,
  processStart,
  sweepOrphanGroups,
} from "./process_groups.ts";

/** A `sleep` leading its own process group, as a stdio server does. */
function groupLeader(): Deno.ChildProcess {
  return new Deno.Command("sleep", { args: ["30"], detached: true, stdout: "null", stderr: "null" })
    .spawn();
}

function record(
  child: Deno.ChildProcess,
  owner: GroupRecord["owner"],
  start?: string,
): GroupRecord {
  return {
    pgid: child.pid,
    start: start ?? processStart(child.pid)!.start,
    owner,
    command: "sleep 30",
    at: new Date().toISOString(),
  };
}

Deno.test("processStart() tells a process from a later one with the same pid", () => {
  const self = processStart(Deno.pid);
  assert.ok(self && !self.zombie);
  assert.equal(processStart(Deno.pid)?.start, self.start);
  assert.equal(processStart(2 ** 30), undefined);
});

Deno.test("sweepOrphanGroups() ends a dead daemon's groups and nothing else", async () => {
  const dir = await Deno.makeTempDir();
  const orphan = groupLeader();
  const owned = groupLeader();
  const reused = groupLeader();
  const deadOwner = { pid: 2 ** 30, start: "1" };
  const liveOwner = { pid: Deno.pid, start: processStart(Deno.pid)!.start };
  try {
    const write = (r: GroupRecord) =>
      Deno.writeTextFile(`${dir}/${r.pgid}.json`, JSON.stringify(r));
    await write(record(orphan, deadOwner));
    await write(record(owned, liveOwner));
    // Same pid, another start time: the pid was reused, so it must not be signalled.
    await write(record(reused, deadOwner, "not-its-start-time"));

    const swept = await sweepOrphanGroups([dir, `${dir}/missing`]);
    assert.deepEqual(
      swept.map((g) => [g.pgid, g.killed]).sort(),
      [[orphan.pid, true], [reused.pid, false]].sort(),
    );
    assert.equal((await orphan.status).signal, "SIGTERM");
    assert.ok(!processStart(reused.pid)?.zombie && processStart(reused.pid), "reused pid lives");
    assert.ok(processStart(owned.pid), "a live daemon's server lives");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [`${owned.pid}.json`]);
  } finally {
    for (const child of [orphan, owned, reused]) {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await child.status;
    }
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("awaitProcessEnd() waits for a process to end, and says when it outlives the wait", async () => {
  const brief = new Deno.Command("sleep", { args: ["0.3"] }).spawn();
  const long = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    assert.equal(await awaitProcessEnd(long.pid, 100), false);
    assert.equal(await awaitProcessEnd(brief.pid, 5000), true);
    assert.equal(await awaitProcessEnd(2 ** 30, 0), true);
  } finally {
    long.kill("SIGKILL");
    await Promise.all([brief.status, long.status]);
  }
});
