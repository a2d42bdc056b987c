import assert from "node:assert/strict";
import { hasNoChildren, StartingInstances } from "./starting.ts";

async function waitFor(check: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
}

Deno.test("StartingInstances.rows() says npx is installing while it has no child process", async () => {
  // `sh -c 'read x'` waits without a child (as npx does while it installs);
  // `sh -c 'sleep 30; true'` has one (as npx does once the server runs).
  const lone = new Deno.Command("sh", { args: ["-c", "read x"], stdin: "piped" }).spawn();
  const parent = new Deno.Command("sh", { args: ["-c", "sleep 30; true"], stdin: "null" }).spawn();
  try {
    assert.ok(await waitFor(() => !hasNoChildren(parent.pid)), "sleep runs as sh's child");
    assert.equal(hasNoChildren(lone.pid), true);
    const starting = new StartingInstances();
    const started = Date.now() - 12_000;
    const allowance = { ms: 300_000, bound: "firstStartTimeout" as const };
    const done = starting.add({
      spec: { name: "memory", namespace: "memory", command: "npx" },
      key: "global",
      startedAt: started,
      startAllowance: allowance,
      pid: lone.pid,
    });
    starting.add({
      spec: { name: "fs", namespace: "fs", command: "/usr/bin/npx" },
      key: "global",
      startedAt: started + 1,
      startAllowance: allowance,
      pid: parent.pid,
    });
    starting.add({
      spec: { name: "own", namespace: "own", command: "sh" },
      key: "global",
      startedAt: started + 2,
      startAllowance: { ms: 30_000, bound: "startTimeout" },
      pid: lone.pid,
    });
    const rows = starting.rows(started + 12_000);
    assert.deepEqual(rows.map((r) => [r.namespace, r.phase, r.runner]), [
      ["memory", "installing", "npx"],
      ["fs", "starting", "npx"],
      ["own", "starting", undefined],
    ]);
    assert.equal(rows[0].elapsedMs, 12_000);
    assert.equal(rows[0].bound, "firstStartTimeout");
    done();
    assert.equal(starting.size, 2);
  } finally {
    for (const child of [lone, parent]) {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await child.status;
    }
    await lone.stdin.close().catch(() => {});
  }
});
