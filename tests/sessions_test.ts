/**
 * Sessions end to end (issue 4; spec 000, "Sharing and scope", "Lifetime",
 * "Named, pinned and resumable sessions"): state shared under one session key
 * and not across two, parent sessions, exclusive leases at max 1 and max 4,
 * named sessions made, listed, rejoined after a daemon stop, and ended, and
 * the endSession operation a script runner calls for a key it minted.
 */
import assert from "node:assert/strict";
import { requestDaemon } from "../wire/daemon_request.ts";
import { eventually, fixtureServer, SERVERS, type World, world } from "./_helpers.ts";

/**
 * server-memory keeps its graph in a file (MEMORY_FILE_PATH, by default one
 * beside its own code, shared by every process): each process gets a file of
 * its own here, so what a session sees is what its process holds.
 */
function memoryServer(w: World, scope: string) {
  return {
    command: "sh",
    args: ["-c", `MEMORY_FILE_PATH="$(mktemp -d)/memory.jsonl" exec ${SERVERS.memory.join(" ")}`],
    env: { TMPDIR: w.dir },
    mcpx: { scope },
  };
}

async function remember(w: World, entity: string, env: Record<string, string>) {
  const r = await w.mcpx([
    "call",
    "memory.create_entities",
    JSON.stringify({ entities: [{ name: entity, entityType: "test", observations: ["x"] }] }),
  ], { env });
  assert.equal(r.code, 0, r.stderr);
}

async function entities(w: World, env: Record<string, string>): Promise<string[]> {
  const graph = await w.json<{ structuredContent?: unknown; content: { text: string }[] }>([
    "call",
    "memory.read_graph",
    "{}",
  ], { env });
  const parsed = (graph.structuredContent ?? JSON.parse(graph.content[0].text)) as {
    entities: { name: string }[];
  };
  return parsed.entities.map((e) => e.name).sort();
}

Deno.test("session scope: two calls under one MCPX_SESSION_ID share state, two ids do not", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { memory: memoryServer(w, "session") } });
  await remember(w, "alpha", { MCPX_SESSION_ID: "one" });
  assert.deepEqual(await entities(w, { MCPX_SESSION_ID: "one" }), ["alpha"]);
  assert.deepEqual(await entities(w, { MCPX_SESSION_ID: "two" }), []);
  await remember(w, "beta", { MCPX_SESSION_ID: "two" });
  assert.deepEqual(await entities(w, { MCPX_SESSION_ID: "one" }), ["alpha"]);
  assert.deepEqual(await entities(w, { MCPX_SESSION_ID: "two" }), ["beta"]);
});

Deno.test("parent-session scope: two callers under one parent share, a third under another does not", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { memory: memoryServer(w, "parent-session") } });
  const a = { MCPX_PARENT_SESSION_ID: "root", MCPX_SESSION_ID: "sub-a" };
  const b = { MCPX_PARENT_SESSION_ID: "root", MCPX_SESSION_ID: "sub-b" };
  const c = { MCPX_PARENT_SESSION_ID: "other", MCPX_SESSION_ID: "sub-c" };
  await remember(w, "from-a", a);
  assert.deepEqual(await entities(w, b), ["from-a"]);
  assert.deepEqual(await entities(w, c), []);
  const status = await w.json<{ servers: { instances: { key: string }[] }[] }>(["status"]);
  assert.deepEqual(
    status.servers[0].instances.map((i) => i.key).sort(),
    ["parent-session:other", "parent-session:root"],
  );
});

/** The socket of the world's one daemon. */
async function socketOf(w: World): Promise<string> {
  const { daemons } = await w.json<{ daemons: { socket: string }[] }>(["daemons"]);
  assert.equal(daemons.length, 1);
  return daemons[0].socket;
}

/** Runs `n` `sleep {ms}` calls at once through the socket; resolves to the wall time in ms. */
async function sleepers(socket: string, n: number, ms: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: n }, () =>
      requestDaemon(socket, "call", {
        target: "slow.sleep",
        arguments: { ms },
      }, { timeoutMs: 30_000 })),
  );
  return performance.now() - started;
}

Deno.test("exclusive sharing: max 1 serializes callers, max 4 runs four at once", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      slow: fixtureServer({ mcpx: { sharing: "exclusive", max: 1, startTimeout: "30s" } }),
    },
  });
  const warm = await w.mcpx(["call", "slow.sleep", '{"ms":1}']);
  assert.equal(warm.code, 0, warm.stderr);
  await t.step("max 1: three 400 ms calls take at least 1,200 ms", async () => {
    const ms = await sleepers(await socketOf(w), 3, 400);
    assert.ok(ms >= 1200, `took ${Math.round(ms)} ms`);
  });
  await w.mcpx(["stop"]);
  await w.writeConfig({
    mcpServers: {
      slow: fixtureServer({ mcpx: { sharing: "exclusive", max: 4, startTimeout: "30s" } }),
    },
  });
  await t.step("max 4: four 1,000 ms calls on warm instances overlap", async () => {
    const warmed = await w.mcpx(["call", "slow.sleep", '{"ms":1}']);
    assert.equal(warmed.code, 0, warmed.stderr);
    const socket = await socketOf(w);
    // Concurrent starters of one key share a start, so a round may reuse a
    // freed instance instead of starting a fourth: repeat until four are up.
    const live = async () =>
      (await w.json<{ servers: { instances: unknown[] }[] }>(["status"])).servers[0].instances
        .length;
    for (let round = 0; round < 5 && await live() < 4; round++) await sleepers(socket, 4, 1000);
    assert.equal(await live(), 4);
    const ms = await sleepers(socket, 4, 1000);
    assert.ok(ms < 2000, `four at once took ${Math.round(ms)} ms (serialized: 4,000)`);
  });
});

interface SessionJson {
  name: string;
  ttlMs?: number;
  live: string[];
}

Deno.test("named sessions: new, ls, rejoin with --session, survive mcpx stop, end", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { sess: fixtureServer({ mcpx: { scope: "session" } }) } });
  const ls = async () => (await w.json<{ sessions: SessionJson[] }>(["session", "ls"])).sessions;
  const echo = (session: string, raw = false) =>
    w.mcpx(["call", "sess.echo", '{"text":"hi"}', "--session", session, ...(raw ? ["--raw"] : [])]);

  await t.step(
    "new --name prints the name; --json the record; a fresh name when none",
    async () => {
      const r = await w.mcpx(["session", "new", "--name", "login-flow", "--ttl", "30m"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "login-flow\n");
      const fresh = await w.json<SessionJson>(["session", "new"]);
      assert.match(fresh.name, /^[a-z2-7]{8}$/);
      assert.deepEqual((await ls()).map((s) => [s.name, s.ttlMs]), [
        ["login-flow", 1_800_000],
        [fresh.name, undefined],
      ]);
      const taken = await w.mcpx(["session", "new", "--name", "login-flow"]);
      assert.equal(taken.code, 1);
      assert.match(taken.stderr, /already exists; rejoin it with --session login-flow/);
      const malformed = await w.mcpx(["session", "new", "--name", "no spaces"]);
      assert.equal(malformed.code, 2);
      assert.match(malformed.stderr, /letters, digits/);
    },
  );

  await t.step(
    "--session <name> rejoins: ls shows the namespace it has an instance in",
    async () => {
      assert.equal((await echo("login-flow")).code, 0);
      assert.deepEqual((await ls()).find((s) => s.name === "login-flow")!.live, ["sess"]);
    },
  );

  await t.step(
    "after mcpx stop the record is still listed; the next call rebuilds and says so",
    async () => {
      assert.equal((await w.mcpx(["stop"])).code, 0);
      const listed = (await ls()).find((s) => s.name === "login-flow");
      assert.deepEqual(listed?.live, [], "listed from its file, with no daemon");
      const r = await echo("login-flow", true);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout)._meta?.["mcpx/session-rebuilt"], {
        session: "login-flow",
        server: "sess",
        key: "session:login-flow",
        why: "rebuilt",
      });
      assert.deepEqual((await ls()).find((s) => s.name === "login-flow")!.live, ["sess"]);
      const log = await w.mcpx(["log", "--event", "session.rebuild", "--json"]);
      assert.match(log.stdout, /login-flow/);
    },
  );

  await t.step("end stops its instances and deletes the record", async () => {
    const ended = await w.json(["session", "end", "login-flow"]);
    assert.deepEqual(ended, { name: "login-flow", stopped: 1 });
    assert.deepEqual((await ls()).map((s) => s.name).includes("login-flow"), false);
    const status = await w.json<{ servers: { instances: unknown[] }[] }>(["status"]);
    assert.deepEqual(status.servers[0].instances, []);
  });

  await t.step("ending an unknown session fails, naming the known ones", async () => {
    await w.mcpx(["session", "new", "--name", "checkout"]);
    const r = await w.mcpx(["session", "end", "chekout"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /unknown session "chekout"; named sessions: checkout/);
    assert.match(r.stderr, /did you mean: checkout\?/);
  });
});

Deno.test("a named session unused past its ttl ends, with its instances", async () => {
  await using w = await world();
  // A short idleTimeout makes the daemon's reaper run every second.
  await w.writeConfig({
    mcpServers: { sess: fixtureServer({ mcpx: { scope: "session" } }) },
    pool: { idleTimeout: "2s" },
  });
  const made = await w.json<SessionJson>(["session", "new", "--name", "brief", "--ttl", "2s"]);
  assert.equal(made.name, "brief");
  assert.equal((await w.mcpx(["call", "sess.echo", '{"text":"x"}', "--session", "brief"])).code, 0);
  assert.ok(
    await eventually(
      async () =>
        (await w.json<{ sessions: SessionJson[] }>(["session", "ls"])).sessions.length === 0,
      15_000,
    ),
    "the session ended",
  );
  const status = await w.json<{ servers: { instances: unknown[] }[] }>(["status"]);
  assert.deepEqual(status.servers[0].instances, []);
  const log = await w.mcpx(["log", "--event", "session.end", "--json"]);
  assert.match(log.stdout, /session-ttl/);
});

Deno.test("endSession stops a minted key's instances in every namespace and logs session-end", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      a: fixtureServer({ mcpx: { scope: "session" } }),
      b: fixtureServer({ mcpx: { scope: "parent-session" } }),
    },
  });
  for (const ns of ["a", "b"]) {
    const r = await w.mcpx(["call", `${ns}.echo`, '{"text":"x"}'], {
      env: { MCPX_SESSION_ID: "run-1234" },
    });
    assert.equal(r.code, 0, r.stderr);
  }
  const socket = await socketOf(w);
  assert.deepEqual(await requestDaemon(socket, "endSession", { session: "run-1234" }), {
    stopped: 2,
  });
  const status = await w.json<{ servers: { instances: unknown[] }[] }>(["status"]);
  assert.deepEqual(status.servers.map((s) => s.instances.length), [0, 0]);
  assert.ok(
    await eventually(async () => {
      const log = await w.mcpx(["log", "--event", "server.exit", "--json"]);
      return (log.stdout.match(/session-end/g) ?? []).length >= 2;
    }),
  );
});
