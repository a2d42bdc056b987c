/**
 * Idle reaping: an instance unused for its server's `idleTimeout` is
 * stopped by the daemon, which itself stays up; the next call starts a
 * fresh instance.
 */

import assert from "node:assert/strict";
import { alive, eventually, stdioServer, world } from "./_helpers.ts";

interface StatusJson {
  servers: { namespace: string; state: string; instances: { pid?: number }[] }[];
}

Deno.test("daemon stops an instance idle for longer than its idleTimeout", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      quick: stdioServer("everything", ["stdio"], { idleTimeout: "1s" }),
      // The default idle timeout (30 min) keeps this one up during the test.
      steady: stdioServer("everything", ["stdio"]),
    },
  });
  const instances = async () => {
    const { servers } = await w.json<StatusJson>(["status"]);
    return Object.fromEntries(servers.map((s) => [s.namespace, s.instances]));
  };

  // Pids are read from the process table right after each call, well inside
  // the 1 s the instance is guaranteed to live.
  const callStarting = async (ns: string) => {
    const before = new Set(w.processes());
    const r = await w.mcpx(["call", `${ns}.echo`, '{"message":"x"}']);
    assert.equal(r.code, 0, r.stderr);
    return w.processes().filter((pid) => !before.has(pid));
  };
  await callStarting("steady");
  const quickPids = await callStarting("quick");
  assert.ok(quickPids.length > 0, "the call started the quick server");
  const { daemons: [daemon] } = await w.json(["daemons"]);
  const steadyPid = (await instances()).steady[0]?.pid;
  assert.ok(steadyPid && alive(steadyPid));

  assert.ok(
    await eventually(async () => (await instances()).quick.length === 0, 15_000),
    "the idle instance was reaped",
  );
  assert.ok(
    await eventually(() => quickPids.every((pid) => !alive(pid))),
    "its processes are gone",
  );
  assert.deepEqual((await instances()).steady.map((i) => i.pid), [steadyPid], "steady untouched");
  assert.deepEqual((await w.json(["daemons"])).daemons.map((d: { pid: number }) => d.pid), [
    daemon.pid,
  ]);

  const fresh = await callStarting("quick");
  assert.ok(fresh.length > 0, "the next call started a fresh instance");
  assert.ok(fresh.every((pid) => !quickPids.includes(pid)));
});

Deno.test("an auto-started daemon exits with its servers after daemon.idleTimeout", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  const env = { MCPX_DAEMON_IDLE_TIMEOUT: "1s" };
  const call = await w.mcpx(["call", "everything.echo", '{"message":"x"}'], { env });
  assert.equal(call.code, 0, call.stderr);
  assert.ok(w.processes().length >= 2, "a daemon and its server run after the call");
  assert.ok(
    await eventually(() => w.processes().length === 0, 15_000),
    `the idle daemon and its server exited; left: ${w.processes()}`,
  );
  assert.deepEqual((await w.json(["daemons"])).daemons, []);
});
