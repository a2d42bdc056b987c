/**
 * Issue 9, "A cloned repository does not run commands by itself": a
 * project's `.mcp.json` starts nothing until `mcpx trust`, whoever asks (the
 * CLI's discovery, calls and scripts, a raw request on the daemon's socket, a
 * pool's `min`); an edit to what a server runs asks again, an edit to its
 * description does not; `always` and the user's own files are not checked.
 *
 * The server is server-everything from npm behind `sh -c 'touch <marker>; exec …'`,
 * so the marker file exists exactly when something started it.
 */

import assert from "node:assert/strict";
import { eventually, SERVERS, STACK_LINE, type World, world } from "./_helpers.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { McpxError } from "../core/errors.ts";
import { existsSync } from "../core/exists.ts";

/** A server entry whose command writes `marker`, then runs server-everything over stdio. */
function markedServer(marker: string, extra: Record<string, unknown> = {}, wrapper = "; exec") {
  return {
    command: "sh",
    args: ["-c", `touch "$0"${wrapper} "$@"`, marker, ...SERVERS.everything, "stdio"],
    ...extra,
  };
}

/** The socket of the one live daemon of `w`, once it answers. */
async function daemonSocket(w: World): Promise<string> {
  let socket = "";
  await eventually(async () => {
    const { daemons } = await w.json<{ daemons: { socket: string }[] }>(["daemons"]);
    socket = daemons[0]?.socket ?? "";
    return socket !== "";
  }, 30_000);
  assert.ok(socket, "no daemon answered");
  return socket;
}

Deno.test("a project's .mcp.json starts nothing until trusted, by any path", async () => {
  await using w = await world({ trust: "ask" });
  const marker = `${w.dir}/started`;
  const config = await w.writeConfig({
    mcpServers: {
      everything: markedServer(marker, { mcpx: { description: "first", min: 1 } }),
    },
    // A project's file cannot switch the check off for itself.
    security: { trustProjectConfigs: "always" },
  });
  const trust = `mcpx trust ${config}`;

  const ls = await w.mcpx(["ls"]);
  assert.equal(ls.code, 0, ls.stderr);
  assert.match(ls.stdout, /everything .* untrusted/);
  assert.ok(ls.stdout.includes(`\`${trust}\``), ls.stdout);
  assert.match(ls.stdout, /An agent should ask its user to run that, not run it itself/);
  assert.match(
    ls.stderr,
    /security\.trustProjectConfigs is set in .*, a project's configuration, and is ignored/,
  );
  const json = await w.json(["ls"]);
  assert.equal(json.namespaces[0].state, "untrusted");
  assert.equal(json.namespaces[0].untrusted.trustCommand, trust);
  assert.equal(json.namespaces[0].untrusted.reason, "new-file");

  for (const args of [["search", "echo"], ["catalog"], ["types", "everything"]]) {
    await w.mcpx(args);
  }
  const call = await w.mcpx(["call", "everything.echo", '{"message":"hi"}']);
  assert.equal(call.code, 1);
  assert.ok(call.stderr.includes(trust), call.stderr);
  assert.match(call.stderr, /ask its user/);
  await Deno.writeTextFile(`${w.dir}/use.ts`, `await everything.echo({ message: "hi" });\n`);
  const run = await w.mcpx(["run", "./use.ts"]);
  assert.equal(run.code, 1);
  assert.ok(run.stderr.includes(trust), run.stderr);
  assert.doesNotMatch(call.stderr, STACK_LINE);

  // The daemon `run` started refuses too, whoever asks over its socket; its pool's `min` started nothing.
  const socket = await daemonSocket(w);
  const raw = await requestDaemon<Record<string, { error?: string }>>(socket, "list", {});
  assert.ok(raw.everything.error?.includes(trust), JSON.stringify(raw));
  await assert.rejects(
    requestDaemon(socket, "call", {
      target: "everything.echo",
      arguments: { message: "hi" },
    }),
    (e: unknown) => e instanceof McpxError && e.code === "untrusted-config",
  );
  const status = await w.json<{ servers: { state: string }[] }>(["status"]);
  assert.equal(status.servers[0].state, "untrusted");
  assert.equal(existsSync(marker), false, "something started the untrusted server");

  // Trusted: it works.
  const trusted = await w.mcpx(["trust"]);
  assert.equal(trusted.code, 0, trusted.stderr);
  assert.ok(trusted.stdout.includes(`sh -c 'touch "$0"; exec "$@"'`), trusted.stdout);
  const ok = await w.mcpx(["call", "everything.echo", '{"message":"hi"}']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /hi/);
  assert.equal(existsSync(marker), true);
  const ran = await w.mcpx(["run", "./use.ts"]);
  assert.equal(ran.code, 0, ran.stderr);
  const listed = await w.json<{ files: { file: string; state: string }[] }>(["trust", "--list"]);
  assert.deepEqual(listed.files.map((f) => f.state), ["current"]);

  // An edit to the description only: still trusted.
  await w.writeConfig({
    mcpServers: { everything: markedServer(marker, { mcpx: { description: "second" } }) },
  });
  const described = await w.json(["ls"]);
  assert.equal(described.namespaces[0].state, "ready");
  assert.equal(described.namespaces[0].description, "second");

  // An edit to its args: untrusted again, and nothing starts it.
  await w.mcpx(["stop"]);
  await Deno.remove(marker);
  await w.writeConfig({ mcpServers: { everything: markedServer(marker, {}, " && exec") } });
  const edited = await w.json(["ls"]);
  assert.equal(edited.namespaces[0].state, "untrusted");
  assert.equal(edited.namespaces[0].untrusted.reason, "changed");
  assert.equal((await w.mcpx(["call", "everything.echo", '{"message":"hi"}'])).code, 1);
  assert.equal(existsSync(marker), false);
  const changed = await w.json<{ files: { state: string; changed: string[] }[] }>([
    "trust",
    "--list",
  ]);
  assert.deepEqual(changed.files[0].changed, ["everything"]);

  // `untrust` takes it back.
  assert.equal((await w.mcpx(["trust"])).code, 0);
  assert.equal((await w.json(["ls"])).namespaces[0].state, "ready");
  assert.equal((await w.mcpx(["untrust"])).code, 0);
  assert.equal((await w.json(["ls"])).namespaces[0].state, "untrusted");
});

Deno.test("no trust is asked under always, for a named file, or for the user's own file", async (t) => {
  await t.step("security.trustProjectConfigs=always", async () => {
    await using w = await world({ trust: "ask" });
    const marker = `${w.dir}/started`;
    await w.writeConfig({ mcpServers: { everything: markedServer(marker) } });
    const env = { MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always" };
    const ls = await w.json(["ls"], { env });
    assert.equal(ls.namespaces[0].state, "ready");
    assert.equal(existsSync(marker), true);
  });
  await t.step("--config names the file", async () => {
    await using w = await world({ trust: "ask" });
    const marker = `${w.dir}/started`;
    await w.writeConfig({ mcpServers: { everything: markedServer(marker) } });
    const ls = await w.json(["--config", ".mcp.json", "ls"]);
    assert.equal(ls.namespaces[0].state, "ready");
    assert.equal(existsSync(marker), true);
  });
  await t.step("~/.config/mcpx/config.json", async () => {
    await using w = await world({ trust: "ask" });
    const marker = `${w.dir}/started`;
    await Deno.mkdir(`${w.dir}/.config/mcpx`, { recursive: true });
    await Deno.writeTextFile(
      `${w.dir}/.config/mcpx/config.json`,
      JSON.stringify({ mcpServers: { everything: markedServer(marker) } }),
    );
    const ls = await w.json(["ls"]);
    assert.equal(ls.namespaces[0].state, "ready");
    assert.equal(existsSync(marker), true);
    const trust = await w.mcpx(["trust"]);
    assert.match(trust.stdout, /one of your own configuration files/);
  });
});

Deno.test("a daemon that checks trust otherwise than its caller is replaced, not obeyed", async () => {
  await using w = await world({ trust: "ask" });
  const marker = `${w.dir}/started`;
  await w.writeConfig({ mcpServers: { everything: markedServer(marker) } });
  // A daemon started by a command that checks (ask) …
  assert.equal((await w.mcpx(["session", "new", "--name", "s1"])).code, 0);
  const before = await w.json<{ daemons: { pid: number }[] }>(["daemons"]);
  // … serves a caller that does not (always) only after it was replaced.
  const env = { MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always" };
  const call = await w.mcpx(["call", "everything.echo", '{"message":"hi"}'], { env });
  assert.equal(call.code, 0, call.stderr);
  const after = await w.json<{ daemons: { pid: number }[] }>(["daemons"]);
  assert.notEqual(after.daemons[0].pid, before.daemons[0].pid);
  assert.equal(existsSync(marker), true);
});
