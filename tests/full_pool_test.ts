/**
 * A full pool makes room (issue 8): at `max`, a caller with a new key gets
 * the least recently used idle instance stopped for it (`whenFull:
 * "evict-idle"`) instead of waiting out that instance's idle timeout; and
 * `min` keeps instances warm for every key known before a call.
 *
 * @module
 */

import assert from "node:assert/strict";
import { commandLine, eventually, fixtureServer, type World, world } from "./_helpers.ts";
import { requestDaemon } from "../wire/daemon_request.ts";

/** Pids of this world's fixture server processes (not its daemon or CLIs). */
function servers(w: World): number[] {
  return w.processes().filter((pid) =>
    commandLine(pid).some((arg) => arg.endsWith("tests/fixtures/servers/misbehaving.ts"))
  );
}

interface StatusJson {
  servers: { instances: { key: string }[] }[];
}

Deno.test("a full exclusive session pool at max 4 serves eight sessions, never running more than four servers", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      slow: fixtureServer({ mcpx: { scope: "session", sharing: "exclusive", max: 4 } }),
    },
  });
  const warm = await w.mcpx(["call", "--session", "s0", "slow.echo", '{"text":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  const { daemons } = await w.json<{ daemons: { socket: string }[] }>(["daemons"]);
  const socket = daemons[0].socket;

  // Count the server processes the whole time the calls run.
  let most = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      most = Math.max(most, servers(w).length);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const results = await Promise.allSettled(
    Array.from({ length: 8 }, (_, i) =>
      requestDaemon(socket, "call", {
        target: "slow.sleep",
        arguments: { ms: 300 },
        session: `s${i + 1}`,
      }, { timeoutMs: 60_000 })),
  );
  sampling = false;
  await sampler;
  const failed = results.flatMap((r) => r.status === "rejected" ? [String(r.reason)] : []);
  assert.deepEqual(failed, [], "every session's call succeeds");
  assert.ok(most <= 4, `${most} server processes ran at once (max 4)`);
  assert.ok(most >= 1);

  // s0's instance was the least recently used, so it made room: its next call is told.
  const again = await w.mcpx(["call", "--session", "s0", "slow.echo", '{"text":"back"}']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, "back\n");
  assert.match(
    again.stderr,
    /note: session s0 had no live slow instance \(its idle instance was stopped to make room for another session \(max 4 instances\)\)/,
  );
  const log = await w.mcpx(["--json", "log", "--event", "pool.evict"]);
  assert.match(log.stdout, /pool\.evict/, log.stderr);
});

Deno.test("a named session's instance within its ttl is never stopped to make room", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      slow: fixtureServer({
        mcpx: { scope: "session", sharing: "exclusive", max: 1, leaseTimeout: "1s" },
      }),
    },
  });
  assert.equal((await w.mcpx(["session", "new", "--name", "keep"])).code, 0);
  const named = await w.mcpx(["call", "--session", "keep", "slow.echo", '{"text":"x"}']);
  assert.equal(named.code, 0, named.stderr);
  const other = await w.mcpx(["--json", "call", "--session", "other", "slow.echo", '{"text":"y"}']);
  assert.equal(other.code, 1, other.stdout);
  const { error } = JSON.parse(other.stdout);
  assert.equal(error.bound, "leaseTimeout");
  assert.match(error.message, /session:keep \(idle \d+s\)/);
  const { servers: rows } = await w.json<StatusJson>(["status"]);
  assert.deepEqual(rows[0].instances.map((i) => i.key), ["session:keep"]);
});

Deno.test("min keeps instances warm for every known key: two for a global server, one per named session", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      pair: fixtureServer({ mcpx: { min: 2, max: 2 }, env: { WHICH: "pair" } }),
      sess: fixtureServer({ mcpx: { scope: "session", min: 1 }, env: { WHICH: "sess" } }),
    },
  });
  // Making a named session starts the daemon, which warms `pair`; the session's own key follows.
  assert.equal((await w.mcpx(["session", "new", "--name", "warm1"])).code, 0);
  // A `call:` key is a process of its own that ends with its request (the daemon listing the
  // session-scoped server with no session): not one that min keeps, and it may be seen passing.
  const keys = async () =>
    (await w.json<StatusJson>(["status"])).servers.map((s) =>
      s.instances.map((i) => i.key).filter((key) => !key.startsWith("call:")).sort()
    );
  const warmed = await eventually(async () => {
    const [pair, sess] = await keys();
    return pair.length === 2 && sess.join() === "session:warm1";
  }, 60_000);
  assert.ok(warmed, `instances per server: ${JSON.stringify(await keys())}`);
  assert.deepEqual(await keys(), [["global", "global"], ["session:warm1"]]);
});
