/**
 * `mcpx session attach` (issue 29; decision 0085) with a real daemon and the
 * counter fixture: a read-only watcher sees another caller's calls and
 * results as they happen and cannot call; a take-over moves the session to
 * the attacher (same server process, its count continues) and the previous
 * holder's next call fails `session-taken-over` naming who; the
 * `sessions.attach` setting refuses.
 */
import assert from "node:assert/strict";
import { backgroundMcpx, eventually, fixtureServer, type World, world } from "./_helpers.ts";

interface Bump {
  count: number;
  pid: number;
}

async function counterWorld(env: Record<string, string> = {}): Promise<World> {
  const w = await world();
  await w.writeConfig({
    mcpServers: {
      counter: fixtureServer({ fixture: "counter", mcpx: { scope: "session" } }),
    },
  });
  await w.json(["session", "new", "--name", "s"], { env });
  return w;
}

function bump(w: World, env: Record<string, string> = {}) {
  return w.mcpx(["call", "--session", "s", "counter.bump", '{"key":"s"}'], { env });
}

async function bumped(w: World, env: Record<string, string> = {}): Promise<Bump> {
  const r = await bump(w, env);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

Deno.test("session attach --read-only sees another caller's calls and results, and cannot call", async () => {
  await using w = await counterWorld();
  await bumped(w);
  await using watcher = backgroundMcpx(w, ["--json", "session", "attach", "s", "--read-only"]);
  assert.ok(
    await eventually(() => watcher.output().includes('"token"')),
    `attached: ${watcher.output()}`,
  );
  const attached = JSON.parse(watcher.output().split("\n")[0]);
  assert.equal(attached.mode, "read");

  const second = await bumped(w);
  assert.equal(second.count, 2);
  const finished = () =>
    watcher.output().split("\n").filter((l) => l.includes('"call.finished"')).map((l) =>
      JSON.parse(l)
    );
  assert.ok(await eventually(() => finished().length > 0), watcher.output());
  const event = finished()[0];
  assert.equal(event.session, "s");
  assert.equal(event.data.tool, "counter.bump");
  assert.equal(JSON.parse(event.data.preview).count, 2, "the result, previewed");

  const refused = await bump(w, { MCPX_ATTACH: attached.token });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /attached read-only/);
  const listed = await w.json<{ sessions: { name: string; attached?: { mode: string }[] }[] }>([
    "session",
    "ls",
  ]);
  assert.deepEqual(listed.sessions[0].attached?.map((a) => a.mode), ["read"]);

  // `mcpx stop` ends the watch, and the watcher starts no daemon on its way out.
  assert.equal((await w.mcpx(["stop"])).code, 0);
  assert.ok(await eventually(() => watcher.exited()), `still watching: ${watcher.output()}`);
  assert.match(watcher.output(), /the daemon stopped, so the watch of session s ended/);
  const daemons = await w.json<{ daemons: unknown[] }>(["daemons"]);
  assert.deepEqual(daemons.daemons, [], "the watcher started a daemon after mcpx stop");
});

Deno.test("session attach --take-over: the attacher's calls reach the same process, the old holder's fail naming who", async () => {
  await using w = await counterWorld();
  const before = await bumped(w);
  const taken = await w.json<{ token: string; mode: string }>([
    "session",
    "attach",
    "s",
    "--take-over",
  ]);
  assert.equal(taken.mode, "write");

  const old = await bump(w);
  assert.equal(old.code, 1);
  assert.match(old.stderr, /session "s" was taken over by pid \d+/);
  assert.doesNotMatch(old.stderr, /^\s+at /m, "no stack trace");

  const mine = await bumped(w, { MCPX_ATTACH: taken.token });
  assert.equal(mine.count, before.count + 1, "the count continues");
  assert.equal(mine.pid, before.pid, "on the same server process");

  const json = await w.mcpx(["--json", "call", "--session", "s", "counter.bump", '{"key":"s"}']);
  assert.equal(json.code, 1);
  assert.match(json.stdout + json.stderr, /session-taken-over/);

  // A script's client sends the attachment too (MCPX_ATTACH in its environment).
  const script = await w.mcpx(
    ["exec", "--session", "s", '(await counter.bump({ key: "s" })).count'],
    { env: { MCPX_ATTACH: taken.token } },
  );
  assert.equal(script.code, 0, script.stderr);
  assert.equal(script.stdout.trim(), String(mine.count + 1));
});

Deno.test("sessions.attach none refuses every attach; owner-only refuses a caller of another tree", async (t) => {
  await t.step("none", async () => {
    const env = { MCPX_SESSIONS_ATTACH: "none" };
    await using w = await counterWorld(env);
    const none = await w.mcpx(["session", "attach", "s", "--take-over"], { env });
    assert.equal(none.code, 1, none.stderr);
    assert.match(none.stderr, /attaching to session "s" is refused.*sessions\.attach is "none"/);
    assert.doesNotMatch(none.stderr, /^\s+at /m, "no stack trace");
  });
  await t.step("owner-only", async () => {
    const owner = { MCPX_SESSIONS_ATTACH: "owner-only", MCPX_PARENT_SESSION_ID: "agent-a" };
    await using w = await counterWorld(owner);
    const other = await w.mcpx(["session", "attach", "s", "--take-over"], {
      env: { ...owner, MCPX_PARENT_SESSION_ID: "agent-b" },
    });
    assert.equal(other.code, 1, other.stderr);
    assert.match(other.stderr, /only its owner may/);
    const same = await w.mcpx(["session", "attach", "s", "--take-over"], { env: owner });
    assert.equal(same.code, 0, same.stderr);
  });
});
