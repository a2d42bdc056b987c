/**
 * A call is never run twice behind the caller's back (issue 8): when the
 * daemon dies while a call is in flight, the caller gets an error naming the
 * daemon and the tool, saying the call may or may not have run, and nothing
 * is sent again; the server busy in that call does not outlive its daemon.
 */

import assert from "node:assert/strict";
import { alive, backgroundMcpx, eventually, fixtureServer, type World, world } from "./_helpers.ts";
import { processStart } from "../engine/process_groups.ts";

/** The pid in the one daemon record of the world's state directory. */
function daemonPid(dir: string): number {
  const records = [...Deno.readDirSync(`${dir}/.state/mcpx/daemons`)]
    .filter((e) => e.name.endsWith(".json"))
    .map((e) => JSON.parse(Deno.readTextFileSync(`${dir}/.state/mcpx/daemons/${e.name}`)));
  assert.equal(records.length, 1, JSON.stringify(records));
  return records[0].pid;
}

function lines(path: string): string[] {
  try {
    return Deno.readTextFileSync(path).split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

interface StatusJson {
  servers: { namespace: string; instances: { pid?: number }[] }[];
}

async function serverPid(w: World): Promise<number> {
  const status = await w.json<StatusJson>(["status"]);
  const pid = status.servers.find((s) => s.namespace === "fx")?.instances[0]?.pid;
  assert.ok(pid, JSON.stringify(status));
  return pid;
}

const LOST = [/may or may not have run/, /not retried/];

for (
  const [how, args] of [
    ["mcpx call", (file: string) => ["call", "fx.count", JSON.stringify({ file, ms: 60_000 })]],
    [
      "a script's call (mcpx exec)",
      (file: string) => ["exec", `await fx.count({ file: ${JSON.stringify(file)}, ms: 60_000 })`],
    ],
  ] as const
) {
  Deno.test(`${how} whose daemon is killed mid-call runs once, fails naming the daemon, and leaves no server behind`, async () => {
    await using w = await world();
    await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
    const warm = await w.mcpx(["call", "fx.echo", '{"text":"warm"}']);
    assert.equal(warm.code, 0, warm.stderr);
    const daemon = daemonPid(w.dir);
    const server = await serverPid(w);
    const count = `${w.dir}/count`;

    await using caller = backgroundMcpx(w, args(count));
    assert.ok(
      await eventually(() => lines(count).length === 1 || caller.exited(), 60_000),
      caller.output(),
    );
    assert.equal(lines(count).length, 1, caller.output());
    Deno.kill(daemon, "SIGKILL");
    const status = await caller.status;
    const output = caller.output();

    // Nothing sent the call again, to this daemon or a new one.
    assert.equal(lines(count).length, 1, `the call ran again:\n${output}`);
    assert.equal(status.code, 1, output);
    assert.match(output, new RegExp(`pid ${daemon}\\b`));
    assert.match(output, /fx\.count/);
    for (const phrase of LOST) assert.match(output, phrase);
    // (A script's uncaught error keeps the script's own frame, not mcpx's.)
    if (how === "mcpx call") assert.doesNotMatch(output, /^\s+at .+[:(]/m, "no stack trace");
    // The server was busy for another minute; it must not outlive its daemon.
    assert.ok(
      await eventually(() => !alive(server), 10_000),
      `server ${server} outlived its daemon`,
    );
    assert.equal(lines(count).length, 1);
  });
}

/** Starts a busy call, then kills its caller and (with SIGKILL) its daemon; returns the server's pid. */
async function orphanBusyServer(w: World, count: string): Promise<number> {
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  const warm = await w.mcpx(["call", "fx.echo", '{"text":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  const daemon = daemonPid(w.dir);
  const server = await serverPid(w);
  // The caller goes first, so only a later mcpx can clean up.
  const caller = backgroundMcpx(w, [
    "call",
    "fx.count",
    JSON.stringify({ file: count, ms: 60_000 }),
  ]);
  assert.ok(await eventually(() => lines(count).length === 1, 60_000), caller.output());
  await caller[Symbol.asyncDispose]();
  Deno.kill(daemon, "SIGKILL");
  await eventually(() => !alive(daemon), 5000);
  assert.ok(alive(server), "the busy server is still running once its daemon is gone");
  return server;
}

Deno.test("the next daemon ends the servers a daemon killed with SIGKILL left busy", async () => {
  await using w = await world();
  const count = `${w.dir}/count`;
  const server = await orphanBusyServer(w, count);

  const next = await w.mcpx(["call", "fx.echo", '{"text":"again"}']);
  assert.equal(next.code, 0, next.stderr);
  assert.ok(await eventually(() => !alive(server), 10_000), `server ${server} was left running`);
  const log = await w.json<{ records: { event: string; attrs?: { pgid?: number } }[] }>([
    "log",
    "--event",
    "server.orphan",
  ]);
  assert.ok(
    log.records.some((r) => r.event === "server.orphan" && r.attrs?.pgid === server),
    JSON.stringify(log),
  );
  assert.equal(lines(count).length, 1);
});

Deno.test("mcpx stop ends the servers a daemon killed with SIGKILL left busy", async () => {
  await using w = await world();
  const server = await orphanBusyServer(w, `${w.dir}/count`);
  assert.deepEqual(await w.json(["stop"]), { stopped: 0, orphans: 1 });
  assert.ok(!alive(server), `server ${server} was left running`);
});

/**
 * A stand-in for a daemon that is killed mid-request: it takes the first
 * request, drops the connection, and is still running for `lingerMs` more, as
 * a daemon with many threads is while the kernel tears it down after closing
 * its sockets.
 */
function dyingDaemon(socket: string, lingerMs: number): Deno.ChildProcess {
  const code = `
    const path = Deno.args[0];
    try { Deno.removeSync(path); } catch { /* none left */ }
    const listener = Deno.listen({ transport: "unix", path });
    console.log("ready");
    const conn = await listener.accept();
    await conn.read(new Uint8Array(65536));
    conn.close();
    listener.close();
    await new Promise((resolve) => setTimeout(resolve, ${lingerMs}));`;
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", code, socket],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

/**
 * Puts a {@link dyingDaemon} at the socket of the world's dead daemon and
 * names it, in the daemon record and the ledger, as the owner of the servers
 * that daemon left.
 */
async function standInFor(w: World, lingerMs: number): Promise<Deno.ChildProcess> {
  const daemons = `${w.dir}/.state/mcpx/daemons`;
  const name = [...Deno.readDirSync(daemons)].find((e) => e.name.endsWith(".json"))!.name;
  const record = JSON.parse(Deno.readTextFileSync(`${daemons}/${name}`));
  const standIn = dyingDaemon(record.socket, lingerMs);
  const reader = standIn.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.match((await reader.read()).value ?? "", /ready/);
  reader.releaseLock();
  const owner = { pid: standIn.pid, start: processStart(standIn.pid)!.start };
  Deno.writeTextFileSync(`${daemons}/${name}`, JSON.stringify({ ...record, pid: owner.pid }));
  const groups = `${daemons}/${name.replace(/\.json$/, ".groups")}`;
  for (const entry of Deno.readDirSync(groups)) {
    const path = `${groups}/${entry.name}`;
    const group = JSON.parse(Deno.readTextFileSync(path));
    Deno.writeTextFileSync(path, JSON.stringify({ ...group, owner }));
  }
  return standIn;
}

Deno.test("a call lost to a daemon that is still dying ends its servers once it has died", async () => {
  await using w = await world();
  const server = await orphanBusyServer(w, `${w.dir}/count`);
  const standIn = await standInFor(w, 600);
  try {
    const lost = await w.mcpx(["call", "fx.echo", '{"text":"again"}']);
    assert.equal(lost.code, 1, lost.stderr);
    for (const phrase of LOST) assert.match(lost.stderr, phrase);
    // The sweep waited for the stand-in to die, so did not take it for a live daemon.
    assert.ok(
      await eventually(() => !alive(server), 3000),
      `server ${server} outlived the daemon that lost the call`,
    );
  } finally {
    await standIn.stdout.cancel().catch(() => {});
    await standIn.status;
  }
});

Deno.test("a run whose daemon dies under its health check goes on with a new daemon and ends the old one's servers", async () => {
  await using w = await world();
  const server = await orphanBusyServer(w, `${w.dir}/count`);
  const standIn = await standInFor(w, 600);
  try {
    const run = await w.mcpx(["exec", 'console.log(await fx.echo({ text: "again" }))']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /again/);
    assert.ok(
      await eventually(() => !alive(server), 3000),
      `server ${server} outlived the daemon that lost the health check`,
    );
  } finally {
    await standIn.stdout.cancel().catch(() => {});
    await standIn.status;
  }
});
