/**
 * Which daemon a CLI talks to: two CLIs racing on a cold state directory
 * start one; an edited config gets its own daemon; a daemon of another
 * version is replaced, never talked to.
 */

import assert from "node:assert/strict";
import { DAEMON_MODULE } from "../cli/daemon_connect.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import type { StatusRow } from "../engine/engine.ts";
import {
  alive,
  backgroundMcpx,
  commandLine,
  eventually,
  fixtureServer,
  MCPX_ENTRY,
  processesMarked,
  ROOT,
  stdioServer,
  world,
} from "./_helpers.ts";

interface DaemonRecord {
  pid: number;
  socket: string;
  fingerprint: string;
  configPath: string | null;
  version: string;
  mode: string;
}

const VERSION: string = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).version;

/** Pids among `pids` that are mcpx daemons (by command line). */
function daemonPids(pids: number[]): number[] {
  return pids.filter((pid) => {
    const argv = commandLine(pid);
    return argv.some((a) => a.endsWith(DAEMON_MODULE)) ||
      (argv.some((a) => a.endsWith("cli/main.ts") || a.endsWith(MCPX_ENTRY)) &&
        argv.includes("daemon"));
  });
}

Deno.test("call and ls racing on a cold state dir end with exactly one daemon", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  // Six CLIs at once: with two, the start windows rarely overlap enough for a
  // missing lock to show.
  const messages = ["one", "two", "three", "four"];
  const [lsA, lsB, ...calls] = await Promise.all([
    w.mcpx(["--json", "ls"]),
    w.mcpx(["--json", "ls"]),
    ...messages.map((m) => w.mcpx(["call", "everything.echo", `{"message":"${m}"}`])),
  ]);
  for (const r of [lsA, lsB, ...calls]) assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(calls.map((r) => r.stdout), messages.map((m) => `Echo: ${m}\n`));
  for (const ls of [lsA, lsB]) assert.equal(JSON.parse(ls.stdout).namespaces[0].state, "ready");

  const { daemons } = await w.json<{ daemons: DaemonRecord[] }>(["daemons"]);
  assert.equal(daemons.length, 1);
  assert.deepEqual(daemonPids(w.processes()), [daemons[0].pid]);
  const status = await w.json(["status"]);
  assert.equal(status.servers[0].instances.length, 1, "one shared server instance");
});

Deno.test("an edited config gets a new daemon and the old one is not used for it", async () => {
  await using w = await world();
  const server = stdioServer("everything", ["stdio"]);
  await w.writeConfig({ mcpServers: { everything: server } });
  assert.equal((await w.mcpx(["call", "everything.echo", '{"message":"a"}'])).code, 0);
  const before = await w.json<{ daemons: DaemonRecord[] }>(["daemons"]);
  assert.equal(before.daemons.length, 1);
  const old = before.daemons[0];

  // Same file, new bytes: a server name only the new config knows.
  // (The old daemon is stopped by the new one; see below.)
  await w.writeConfig({ mcpServers: { ev2: server } });
  const { fingerprint } = await w.json(["config"]);
  assert.notEqual(fingerprint, old.fingerprint);
  const call = await w.mcpx(["call", "ev2.echo", '{"message":"b"}']);
  assert.equal(call.code, 0, call.stderr);
  assert.equal(call.stdout, "Echo: b\n");

  const after = await w.json<{ daemons: DaemonRecord[] }>(["daemons"]);
  const current = after.daemons.find((d) => d.fingerprint === fingerprint);
  assert.ok(current, `a daemon for ${fingerprint}: ${JSON.stringify(after.daemons)}`);
  assert.notEqual(current.pid, old.pid);
  const status = await w.json(["status"]);
  assert.deepEqual(status.servers.map((s: { namespace: string }) => s.namespace), ["ev2"]);
  assert.equal(status.servers[0].instances.length, 1);
  const stale = await w.mcpx(["call", "everything.echo", '{"message":"c"}']);
  assert.equal(stale.code, 1, "the old namespace is gone with the old config");
  assert.match(stale.stderr, /unknown namespace "everything"/);

  // The daemon of the old bytes is stopped by the new one, servers and all.
  assert.ok(
    await eventually(async () => (await w.json(["daemons"])).daemons.length === 1),
    "only the daemon of the current config is left",
  );
  assert.ok(await eventually(() => !alive(old.pid)), "the old daemon exited");
  // The warm commands above went through the front (decision 0068): --all ends it too.
  const others = () => new Set(w.processes());
  const fronts = () => processesMarked(w.mark, { front: true }).filter((p) => !others().has(p));
  assert.equal(fronts().length, 1, "one front ran them");
  assert.deepEqual(await w.json(["stop", "--all"]), { stopped: 1, front: true });
  assert.ok(await eventually(() => w.processes().length === 0), `left: ${w.processes()}`);
  assert.ok(
    await eventually(() => fronts().length === 0),
    "the front outlived mcpx stop --all",
  );
});

Deno.test("a daemon whose socket is removed exits with its servers", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  assert.equal((await w.mcpx(["call", "everything.echo", '{"message":"a"}'])).code, 0);
  const [daemon] = (await w.json<{ daemons: DaemonRecord[] }>(["daemons"])).daemons;
  await Deno.remove(daemon.socket);
  assert.ok(await eventually(() => w.processes().length === 0, 60_000), `left: ${w.processes()}`);
});

Deno.test("call replaces a daemon of another version instead of talking to it", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  await using old = backgroundMcpx(w, ["daemon"], {
    env: { MCPX_PLUMBING_VERSION: "0.0.0-old" },
  });
  let oldRecord: DaemonRecord | undefined;
  assert.ok(
    await eventually(async () => {
      const { daemons } = await w.json<{ daemons: DaemonRecord[] }>(["daemons"]);
      oldRecord = daemons.find((d) => d.version === "0.0.0-old");
      return oldRecord !== undefined || old.exited();
    }, 30_000) && oldRecord,
    `the old daemon came up: ${old.output()}`,
  );
  assert.equal(oldRecord.mode, "foreground");
  // Give the old daemon a server to hold, asking it directly as an old CLI would.
  const answer = await requestDaemon(oldRecord.socket, "call", {
    target: "everything.echo",
    arguments: { message: "old" },
  });
  assert.deepEqual(answer, { content: [{ type: "text", text: "Echo: old" }] });
  const [oldServer] = (await requestDaemon<StatusRow[]>(oldRecord.socket, "status", {}))[0]
    .instances;
  assert.ok(oldServer?.pid && alive(oldServer.pid));

  const call = await w.mcpx(["call", "everything.echo", '{"message":"new"}']);
  assert.equal(call.code, 0, call.stderr);
  assert.equal(call.stdout, "Echo: new\n");

  const { daemons } = await w.json<{ daemons: DaemonRecord[] }>(["daemons"]);
  assert.equal(daemons.length, 1, JSON.stringify(daemons));
  assert.equal(daemons[0].version, VERSION);
  assert.notEqual(daemons[0].pid, oldRecord.pid);
  assert.ok(await eventually(() => old.exited()), "the old daemon exited");
  assert.equal((await old.status).code, 0, old.output());
  assert.deepEqual(daemonPids(w.processes()), [daemons[0].pid]);
  assert.ok(!alive(oldServer.pid), "the old daemon's server went with it");
});

Deno.test("--paths-state and --paths-cache reach the daemon the CLI starts", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  const state = `${w.dir}/flag-state`;
  const cache = `${w.dir}/flag-cache`;
  const flags = ["--paths-state", state, "--paths-cache", cache];
  const call = await w.mcpx([...flags, "call", "everything.echo", '{"message":"here"}']);
  assert.equal(call.code, 0, call.stderr);
  const { daemons } = await w.json<{ daemons: DaemonRecord[] }>([...flags, "daemons"]);
  assert.equal(daemons.length, 1);
  assert.ok(daemons[0].socket.startsWith(state), daemons[0].socket);
  const types = await w.mcpx([...flags, "types", "everything.echo"]);
  assert.equal(types.code, 0, types.stderr);
  assert.equal(
    (await w.json(["daemons"])).daemons.length,
    0,
    "nothing under the default state dir",
  );
  await w.mcpx([...flags, "stop", "--all"]);
});

Deno.test("editing the config lets a call in flight on the old daemon finish", async () => {
  await using w = await world();
  const fixture = (description: string) => ({
    mcpServers: {
      slow: fixtureServer({ mcpx: { description } }),
    },
  });
  await w.writeConfig(fixture("before"));
  assert.equal((await w.mcpx(["call", "slow.echo", '{"text":"warm"}'])).code, 0);
  await using inFlight = backgroundMcpx(w, ["call", "slow.sleep", '{"ms":4000}']);
  assert.ok(
    await eventually(async () => {
      const status = await w.json(["status"]);
      return status.servers[0].instances[0]?.active === 1;
    }),
    "the long call is running",
  );
  await w.writeConfig(fixture("after")); // new bytes: the next command starts a new daemon
  const next = await w.mcpx(["call", "slow.echo", '{"text":"new"}']);
  assert.equal(next.code, 0, next.stderr);
  const status = await inFlight.status;
  assert.equal(status.code, 0, `the call in flight finished: ${inFlight.output()}`);
  assert.match(inFlight.output(), /slept 4000/);
  assert.ok(
    await eventually(async () => (await w.json(["daemons"])).daemons.length === 1, 15_000),
    "the old daemon stopped once it was idle",
  );
});
