/**
 * The daemon's own lifecycle (issue 8): a stop is never lost, an
 * auto-started daemon applies the settings of every layer, the daemon
 * process exits only with the table's codes, and `MCPX_TRACE` travels with
 * each call to a daemon that was started without it.
 */

import assert from "node:assert/strict";
import { backgroundMcpx, eventually, fixtureServer, ROOT, type World, world } from "./_helpers.ts";
import { requestDaemon } from "../wire/daemon_request.ts";

const VERSION: string = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).version;

/** The socket of the one daemon in the world's state directory, once it answers. */
async function answeringSocket(w: World, ms = 30_000): Promise<string | undefined> {
  const dir = `${w.dir}/.state/mcpx/sockets`;
  let found: string | undefined;
  await eventually(async () => {
    let names: string[] = [];
    try {
      names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".sock"));
    } catch { /* not yet */ }
    for (const name of names) {
      try {
        await requestDaemon(`${dir}/${name}`, "health", {}, { timeoutMs: 500 });
        found = `${dir}/${name}`;
        return true;
      } catch { /* not yet */ }
    }
    return false;
  }, ms);
  return found;
}

/** Runs daemon/main.ts by hand in the world, killed (and the test failed) after `ms`. */
async function daemonMain(
  w: World,
  args: string[],
  ms = 30_000,
): Promise<{ code: number; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}daemon/main.ts`, ...args],
    env: w.env,
    clearEnv: true,
    cwd: w.dir,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    signal: AbortSignal.timeout(ms),
  }).spawn();
  const out = await child.output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.ok(out.signal === null, `daemon/main.ts ${args.join(" ")} did not exit in ${ms} ms`);
  return { code: out.code, stderr };
}

Deno.test("a stop that arrives while the daemon retires an outdated predecessor stops it", async () => {
  await using w = await world();
  const configPath = await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  // An outdated predecessor (same file, older bytes) that never answers, so
  // retiring it takes the whole of its timeout.
  const daemons = `${w.dir}/.state/mcpx/daemons`;
  await Deno.mkdir(daemons, { recursive: true });
  const quiet = Deno.listen({ transport: "unix", path: `${w.dir}/quiet.sock` });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of quiet) held.push(conn);
  })().catch(() => {});
  await Deno.writeTextFile(
    `${daemons}/00000000000000aa.json`,
    JSON.stringify({
      fingerprint: "00000000000000aa",
      pid: 999_999_999,
      socket: `${w.dir}/quiet.sock`,
      configPath,
      contentHash: "an-older-version",
      version: VERSION,
      mode: "auto",
      startedAt: new Date().toISOString(),
    }),
  );
  try {
    await using daemon = backgroundMcpx(w, ["daemon"]);
    const socket = await answeringSocket(w);
    assert.ok(socket, daemon.output());
    // At once: the daemon is still waiting on its predecessor.
    assert.deepEqual(await requestDaemon(socket, "stop", {}), { stopping: true });
    assert.ok(
      await eventually(() => daemon.exited(), 20_000),
      `it did not stop:\n${daemon.output()}`,
    );
    assert.equal((await daemon.status).code, 0, daemon.output());
    assert.doesNotMatch(daemon.output(), /ReferenceError|before initialization/);
    assert.match(daemon.output(), /daemon \d+ stopped: stop requested/);
  } finally {
    quiet.close();
    for (const conn of held) conn.close();
    await accepting;
  }
});

Deno.test("an auto-started daemon applies settings from every configuration layer", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  // A farther layer (the user's file) than the project's .mcp.json.
  await Deno.mkdir(`${w.dir}/.config/mcpx`, { recursive: true });
  await Deno.writeTextFile(
    `${w.dir}/.config/mcpx/config.json`,
    JSON.stringify({ logging: { retention: "1d" } }),
  );
  const logs = `${w.dir}/.state/mcpx/logs`;
  await Deno.mkdir(logs, { recursive: true });
  const old = `${logs}/2020-01-01_daemon-old_0.jsonl`;
  await Deno.writeTextFile(old, "{}\n");
  const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
  await Deno.utime(old, threeDaysAgo, threeDaysAgo);

  const call = await w.mcpx(["call", "fx.echo", '{"text":"hi"}']);
  assert.equal(call.code, 0, call.stderr);
  const exists = () => Deno.stat(old).then(() => true, () => false);
  assert.ok(
    await eventually(async () => !(await exists()), 5000),
    "the daemon kept a 3-day-old log file under the user file's 1-day retention",
  );
});

Deno.test("the daemon process exits with the table's codes and says why", async (t) => {
  await using w = await world();
  const configPath = await w.writeConfig({ mcpServers: { fx: fixtureServer() } });

  await t.step("an invalid setting is reported, never replaced by its default", async () => {
    const broken = `${w.dir}/broken.json`;
    await Deno.writeTextFile(
      broken,
      JSON.stringify({ mcpServers: { fx: fixtureServer() }, logging: { retention: "soon" } }),
    );
    const { code, stderr } = await daemonMain(w, ["--config", broken]);
    assert.equal(code, 1, stderr);
    assert.match(stderr, /logging\.retention/);
    assert.match(stderr, /soon/);
  });

  const warm = await w.mcpx(["call", "fx.echo", '{"text":"hi"}']);
  assert.equal(warm.code, 0, warm.stderr);

  await t.step("a second daemon for a served configuration exits 1 naming the first", async () => {
    const { code, stderr } = await daemonMain(w, ["--config", configPath]);
    assert.equal(code, 1, stderr);
    assert.match(stderr, /another daemon \(pid \d+\) already serves/);
    const fg = await w.mcpx(["daemon"], { timeoutMs: 30_000 });
    assert.equal(fg.code, 1, fg.stderr);
    assert.match(fg.stderr, /error: another daemon \(pid \d+\) already serves/);
  });

  await t.step("a fingerprint the file no longer has exits 1 saying the file changed", async () => {
    const { code, stderr } = await daemonMain(w, [
      "--config",
      configPath,
      "--fingerprint",
      "0123456789abcdef",
    ]);
    assert.equal(code, 1, stderr);
    assert.match(stderr, /changed while its daemon was starting/);
  });
});

Deno.test("MCPX_TRACE names the instance that served each call, for mcpx call and for a script", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  // The daemon starts without the switch: it must travel with each call.
  const warm = await w.mcpx(["call", "fx.echo", '{"text":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  assert.doesNotMatch(warm.stderr, /mcpx trace:/);
  const status = await w.json(["status"]);
  const pid = status.servers[0].instances[0].pid;
  const line = new RegExp(
    `^mcpx trace: fx\\.echo served by fx \\(pid ${pid}, key global, instance ins-[0-9a-f]+, call cal-[0-9a-f]+\\)$`,
    "m",
  );

  const traced = await w.mcpx(["call", "fx.echo", '{"text":"traced"}'], {
    env: { MCPX_TRACE: "1" },
  });
  assert.equal(traced.code, 0, traced.stderr);
  assert.equal(traced.stdout, "traced\n");
  assert.match(traced.stderr, line);

  const script = await w.mcpx(["exec", 'await fx.echo({ text: "from a script" })'], {
    env: { MCPX_TRACE: "1" },
  });
  assert.equal(script.code, 0, script.stderr);
  assert.match(script.stderr, line);

  // The setting's other spellings reach a script too (here a flag).
  const flagged = await w.mcpx(["--logging-trace", "exec", 'await fx.echo({ text: "f" })']);
  assert.equal(flagged.code, 0, flagged.stderr);
  assert.match(flagged.stderr, line);

  const { records } = await w.json(["log", "--event", "call.trace"]);
  assert.equal(records.length, 3, JSON.stringify(records));
  for (const record of records) {
    assert.equal(record.attrs.pid, pid);
    assert.match(record.attrs.instance, /^ins-/);
  }
});
