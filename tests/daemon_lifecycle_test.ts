/**
 * The daemon's operations verbs on a warm daemon: `status`, `refresh`,
 * `restart`, `daemons`, `stop`, and that `stop` leaves no process behind.
 */

import assert from "node:assert/strict";
import { DAEMON_MODULE } from "../cli/daemon_connect.ts";
import {
  alive,
  background,
  commandLine,
  eventually,
  mcpxArgv,
  ROOT,
  stdioServer,
  world,
} from "./_helpers.ts";

interface StatusJson {
  daemon: boolean;
  servers: {
    namespace: string;
    state: string;
    instances: { id: string; pid?: number; calls: number; stderrTail?: string }[];
  }[];
}

const VERSION: string = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).version;

Deno.test("status, refresh, restart, daemons and stop on a warm daemon", async (t) => {
  await using w = await world();
  const configPath = await w.writeConfig({
    mcpServers: { everything: stdioServer("everything", ["stdio"]) },
  });
  const everything = async () =>
    (await w.json<StatusJson>(["status"])).servers.find((s) => s.namespace === "everything")!;
  let firstPid = 0;

  await t.step("status with no daemon says so and starts none", async () => {
    const status = await w.json<StatusJson>(["status"]);
    assert.equal(status.daemon, false);
    assert.equal(status.servers[0].state, "idle");
    assert.deepEqual(w.processes(), []);
  });

  await t.step("status shows the live instance a call started", async () => {
    const call = await w.mcpx(["call", "everything.echo", '{"message":"warm"}']);
    assert.equal(call.code, 0, call.stderr);
    const row = await everything();
    assert.equal(row.state, "live");
    assert.equal(row.instances.length, 1);
    const [instance] = row.instances;
    assert.ok(instance.pid && alive(instance.pid), "the instance's pid is a live process");
    assert.ok(instance.calls >= 1);
    assert.ok(w.processes().includes(instance.pid));
    const { namespaces } = await w.json(["ls"]);
    assert.equal(namespaces[0].live, 1, "ls counts the live instance");
    firstPid = instance.pid;
  });

  await t.step("daemons lists this config's daemon with the CLI's version", async () => {
    const { daemons } = await w.json(["daemons"]);
    assert.equal(daemons.length, 1);
    assert.equal(daemons[0].configPath, configPath);
    assert.equal(daemons[0].version, VERSION);
    assert.equal(daemons[0].mode, "auto");
    assert.ok(commandLine(daemons[0].pid).some((a) => a.endsWith(DAEMON_MODULE)));
  });

  await t.step("refresh lists the servers again and rewrites the cache", async () => {
    const cache = [...Deno.readDirSync(`${w.dir}/.cache/mcpx`)]
      .find((e) => e.isFile && /^schemas-[0-9a-f]+\.json$/.test(e.name))!.name;
    const before = JSON.parse(Deno.readTextFileSync(`${w.dir}/.cache/mcpx/${cache}`));
    const refreshed = await w.json(["refresh"]);
    assert.ok(refreshed.servers.everything.tools > 0, JSON.stringify(refreshed));
    const after = JSON.parse(Deno.readTextFileSync(`${w.dir}/.cache/mcpx/${cache}`));
    assert.equal(refreshed.servers.everything.error, undefined, JSON.stringify(refreshed));
    assert.ok(
      after.servers.everything.listedAt > before.servers.everything.listedAt,
      `listedAt moved forward: ${before.servers.everything.listedAt} → ${after.servers.everything.listedAt} (${
        JSON.stringify(refreshed)
      })`,
    );
    const unknown = await w.mcpx(["refresh", "everythin"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown namespace "everythin"/);
  });

  await t.step("restart stops the instance and the next call gets a new pid", async () => {
    const restarted = await w.json(["restart", "everything"]);
    assert.deepEqual(restarted, { namespace: "everything", stopped: 1 });
    assert.equal((await everything()).instances.length, 0);
    assert.ok(await eventually(() => !alive(firstPid)), "the old server process is gone");
    const call = await w.mcpx(["call", "everything.echo", '{"message":"again"}']);
    assert.equal(call.code, 0, call.stderr);
    const [instance] = (await everything()).instances;
    assert.ok(instance.pid && instance.pid !== firstPid, `new pid ${instance.pid}`);
  });

  await t.step("stop ends the daemon and leaves no process of this world", async () => {
    assert.ok(w.processes().length >= 2, "a daemon and a server run before stop");
    const stopped = await w.json(["stop"]);
    assert.deepEqual(stopped, { stopped: 1 });
    assert.ok(
      await eventually(() => w.processes().length === 0),
      `still running: ${w.processes().map((p) => commandLine(p).join(" ")).join("\n")}`,
    );
    assert.deepEqual((await w.json(["daemons"])).daemons, []);
    assert.deepEqual(await w.json(["stop"]), { stopped: 0 });
  });
});

Deno.test("stop returns once the daemon has exited, even when its parent never reaps it", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  // The daemon's parent becomes `sleep`, which never waits for children: once
  // the daemon exits it stays a zombie, as under an init that reaps late.
  const mcpx = mcpxArgv().map((a) => `'${a}'`).join(" ");
  await using parent = background("sh", ["-c", `${mcpx} daemon & exec sleep 600`], {
    env: w.env,
    cwd: w.dir,
  });
  let pid = 0;
  assert.ok(
    await eventually(async () => {
      pid = (await w.json(["daemons"])).daemons[0]?.pid ?? 0;
      return pid > 0 || parent.exited();
    }, 30_000) && pid > 0,
    `the daemon came up: ${parent.output()}`,
  );
  const stop = w.json(["stop"]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"deadline">((resolve) =>
    timer = setTimeout(() => resolve("deadline"), 8000)
  );
  const first = await Promise.race([stop, deadline]);
  clearTimeout(timer);
  const result = await stop;
  assert.notEqual(first, "deadline", "stop answered before its 15 s give-up deadline");
  assert.deepEqual(result, { stopped: 1 });
  assert.ok(!alive(pid), "the daemon has exited (a zombie at most)");
});
