/**
 * `mcpx daemon upgrade` with real daemon processes (decision 0084, issue 29):
 * the servers a daemon holds survive its replacement, calls in flight finish,
 * calls made meanwhile wait and run once, and an adopted server's crash is
 * still seen.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  alive,
  eventually,
  fixtureServer,
  remoteEverything,
  type World,
  world,
} from "./_helpers.ts";

interface Bumped {
  count: number;
  pid: number;
}

interface Upgraded {
  oldPid: number;
  newPid: number;
  kept: number;
  longestWaitMs: number;
  waited: number;
  tookMs: number;
}

/** The pid of this world's daemon, from `mcpx daemons`. */
async function daemonOf(w: World): Promise<{ pid: number; socket: string }> {
  const listed = await w.json<{ daemons: { pid: number; socket: string }[] }>(["daemons"]);
  assert.equal(listed.daemons.length, 1, JSON.stringify(listed));
  return listed.daemons[0];
}

async function bump(w: World, session: string): Promise<Bumped> {
  const result = await w.mcpx(["--session", session, "call", "counter.bump", '{"key":"s"}']);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

async function upgrade(w: World): Promise<Upgraded> {
  const result = await w.mcpx(["--json", "daemon", "upgrade"]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

Deno.test("mcpx daemon upgrade keeps a session's server and its state: 1, 2, upgrade, 3", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      counter: fixtureServer({ fixture: "counter", mcpx: { scope: "session" } }),
    },
  });
  const one = await bump(w, "s");
  const two = await bump(w, "s");
  assert.deepEqual([one.count, two.count], [1, 2]);
  const before = await daemonOf(w);
  const upgraded = await upgrade(w);
  assert.equal(upgraded.oldPid, before.pid);
  assert.notEqual(upgraded.newPid, before.pid);
  assert.equal(upgraded.kept, 1);
  const three = await bump(w, "s");
  assert.equal(three.count, 3);
  assert.equal(three.pid, one.pid, "the same server process answered");
  assert.equal((await daemonOf(w)).pid, upgraded.newPid);
  assert.ok(await eventually(() => !alive(before.pid)), "the old daemon exits");
  assert.ok(alive(one.pid));
});

Deno.test("mcpx daemon upgrade: 50 calls in flight and more made meanwhile all run once, none fails", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { slow: fixtureServer({ mcpx: { sharing: "shared" } }) } });
  const calls = `${w.dir}/calls`;
  await Deno.mkdir(calls);
  // Warm the server, so that the calls below are in flight, not waiting for a start.
  assert.equal((await w.mcpx(["call", "slow.echo", '{"text":"warm"}'])).code, 0);
  const { socket, pid: oldPid } = await daemonOf(w);
  const client = Deno.createHttpClient({ proxy: { transport: "unix", path: socket } });
  const call = async (i: number) => {
    const from = performance.now();
    const answer = await fetch("http://daemon/v1/call/slow/count", {
      method: "POST",
      body: JSON.stringify({ file: `${calls}/${i}`, ms: 300 }),
      client,
    });
    const body = await answer.json();
    return { i, ok: body.ok === true, body, ms: performance.now() - from };
  };
  const first = Array.from({ length: 50 }, (_, i) => call(i));
  // The upgrade starts once every one of the 50 is running at the server.
  assert.ok(
    await eventually(() => [...Deno.readDirSync(calls)].length === 50, 20_000),
    "50 calls in flight",
  );
  let upgradeDone = false;
  const upgrading = upgrade(w).finally(() => upgradeDone = true);
  // Calls made while the daemon is replaced: one every 25 ms until the upgrade has answered.
  const during: ReturnType<typeof call>[] = [];
  while (!upgradeDone) {
    during.push(call(50 + during.length));
    await new Promise((r) => setTimeout(r, 25));
  }
  const upgraded = await upgrading;
  const after = Array.from({ length: 5 }, (_, i) => call(50 + during.length + i));
  const results = await Promise.all([...first, ...during, ...after]);
  client.close();
  const failed = results.filter((r) => !r.ok);
  assert.deepEqual(failed.map((r) => r.body), [], "no call fails");
  assert.ok(upgraded.waited > 0, "some calls were made while requests were held");
  for (let i = 0; i < results.length; i++) {
    const lines = Deno.readTextFileSync(`${calls}/${i}`).trim().split("\n");
    assert.equal(lines.length, 1, `call ${i} ran ${lines.length} times`);
  }
  assert.notEqual(upgraded.newPid, oldPid);
  assert.equal(upgraded.kept, 1);
  const longestCall = Math.max(...results.map((r) => r.ms));
  console.log(
    `${results.length} calls; upgrade: took ${upgraded.tookMs} ms; ${upgraded.waited} request(s) waited, the longest ` +
      `${upgraded.longestWaitMs} ms; the longest call took ${Math.round(longestCall)} ms ` +
      `(300 ms of it at the server)`,
  );
});

Deno.test("mcpx daemon upgrade: an adopted server's crash is seen and reported", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { slow: fixtureServer() } });
  assert.equal((await w.mcpx(["call", "slow.echo", '{"text":"warm"}'])).code, 0);
  assert.equal((await upgrade(w)).kept, 1);
  const crashed = await w.mcpx(["call", "slow.crash", "{}"]);
  assert.equal(crashed.code, 1);
  // Seen as the exit it is (its stdout's end, its pid gone), with its stderr, as before an upgrade.
  assert.match(crashed.stderr, /the server exited \(crash\)/);
  assert.match(crashed.stderr, /about to crash on purpose/);
  const logged = await w.mcpx(["log"]);
  assert.match(logged.stdout, /server slow exited \(crash\)/);
  const again = await w.mcpx(["call", "slow.echo", '{"text":"again"}']);
  assert.equal(again.code, 0, again.stderr);
});

Deno.test("mcpx daemon upgrade resumes a Streamable HTTP server's session by its id", async () => {
  await using w = await world();
  await using http = await remoteEverything(w, "streamableHttp");
  await w.writeConfig({ mcpServers: { remote: { url: http.url } } });
  const before = await w.mcpx(["call", "remote.echo", '{"message":"before"}']);
  assert.equal(before.code, 0, before.stderr);
  const sessionsBefore = sessionIds(http.process.output());
  assert.equal(sessionsBefore.length, 1, http.process.output());
  const upgraded = await upgrade(w);
  assert.equal(upgraded.kept, 1, JSON.stringify(upgraded));
  const after = await w.mcpx(["call", "remote.echo", '{"message":"after"}']);
  assert.equal(after.code, 0, after.stderr);
  assert.match(after.stdout, /after/);
  // No `initialize` opened a second session at the server.
  assert.deepEqual(sessionIds(http.process.output()), sessionsBefore);
});

/** The session ids server-everything says it initialized, in its output. */
function sessionIds(output: string): string[] {
  return [...output.matchAll(/[Ss]ession (?:initialized|created)[^\n]*?([0-9a-f-]{36})/g)]
    .map((m) => m[1]);
}
