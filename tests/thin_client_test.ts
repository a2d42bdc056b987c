/**
 * The launcher and the thin client (cli/mcpx, cli/relay/thin.ts; decisions
 * 0067, 0068) answer what the whole process answers: with no front process
 * the command runs in the caller's process and starts one; once the front
 * runs, a relayed command line gets the same output and exit code, each
 * caller's configuration found from its own directory.
 */
import assert from "node:assert/strict";
import { eventually, fixtureServer, STACK_LINE, world } from "./_helpers.ts";
import { ROOT } from "../dev/mcpx_argv.ts";
import { frontSocket } from "../cli/relay/front_socket.ts";
import { relay } from "../cli/relay/thin.ts";
import { existsSync } from "../core/exists.ts";

Deno.test("the thin client answers as mcpx does, through a front process once one runs", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  // The launcher, off a terminal: the thin client for a warm command.
  const thin = async (args: string[]) => {
    const out = await new Deno.Command(`${ROOT}cli/mcpx`, {
      args,
      env: w.env,
      clearEnv: true,
      cwd: w.dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
  };
  const direct = await w.mcpx(["ls"], { env: { MCPX_RELAY: "0" } });
  assert.equal(direct.code, 0, direct.stderr);

  // No front yet: the command runs in the thin client's own process, and starts one.
  const first = await thin(["ls"]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, direct.stdout);
  const socket = frontSocket(w.env);
  assert.ok(
    await eventually(() => Promise.resolve(existsSync(socket)), 30_000),
    "no front started",
  );

  // A command relayed from this process: what it printed on each stream, and its exit code.
  const relayed_ = async (argv: string[], env = w.env, cwd = w.dir) => {
    let stdout = "";
    let stderr = "";
    const decoder = new TextDecoder();
    const outcome = await relay(argv, env, cwd, Deno.ppid, {
      out: (bytes) => Promise.resolve(void (stdout += decoder.decode(bytes))),
      err: (bytes) => Promise.resolve(void (stderr += decoder.decode(bytes))),
    });
    return "ranNothing" in outcome ? outcome : { stdout, stderr, code: outcome.code };
  };
  // Relayed: the front runs the same command line and answers its output and its exit code.
  const relayed = await relayed_(["ls"]);
  assert.ok(relayed, "the front did not answer");
  assert.deepEqual(relayed, { stdout: direct.stdout, stderr: direct.stderr, code: 0 });
  const local = await relayed_(["serve"]);
  assert.deepEqual(local, {
    ranNothing: "`serve` runs in the caller's process",
    startFront: false,
  });
  const call = await relayed_(["call", "fx.echo", '{"text":"hi"}']);
  assert.deepEqual(call, { stdout: "hi\n", stderr: "", code: 0 });
  // An inline daemon needs a process of its own: the front hands the command back, run nothing.
  const inline = await relayed_(["call", "--inline", "fx.echo", '{"text":"in"}']);
  assert.deepEqual(inline, {
    ranNothing: "daemon.inline runs the daemon in the caller's own process",
    startFront: false,
  });
  const inlineHere = await thin(["call", "--inline", "fx.echo", '{"text":"in"}']);
  assert.deepEqual(inlineHere, { code: 0, stdout: "in\n", stderr: "" });
  const missing = await relayed_(["types", "nosuch"]);
  assert.ok("code" in missing && missing.code === 1);
  assert.match(missing.stderr, /unknown namespace "nosuch"/);

  // Another caller's directory holds another configuration: each is answered from its own.
  const other = `${w.dir}/other`;
  await Deno.mkdir(other);
  await Deno.writeTextFile(
    `${other}/.mcp.json`,
    JSON.stringify({ mcpServers: { elsewhere: fixtureServer() } }),
  );
  // Both at once, with another environment for one of them: nothing crosses.
  const [there, here] = await Promise.all([
    relayed_(["ls"], { ...w.env, MCPX_OUTPUT_JSON: "true" }, other),
    relayed_(["ls"]),
  ]);
  const names = JSON.parse("stdout" in there ? there.stdout : "").namespaces.map((
    n: { namespace: string },
  ) => n.namespace);
  assert.deepEqual(names, ["elsewhere"]);
  assert.deepEqual(here, relayed, "and the first is unchanged");

  // A request larger than the front reads is not sent: the command runs in the caller's process.
  const huge = await relayed_(["ls"], { ...w.env, BIG: "x".repeat(600 * 1024) });
  assert.deepEqual(huge, { ranNothing: "the request is over 524288 bytes", startFront: false });

  // The thin entry as a process, the front running: the same answer.
  const second = await thin(["ls"]);
  assert.deepEqual(second, { code: 0, stdout: direct.stdout, stderr: direct.stderr });
});

Deno.test("a relayed command into a closed pipe ends quietly, with its exit code", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  const first = await w.mcpx(["ls"]);
  assert.equal(first.code, 0, first.stderr);
  assert.ok(await eventually(() => existsSync(frontSocket(w.env)), 30_000), "no front started");
  await Deno.writeTextFile(`${w.dir}/big.json`, JSON.stringify({ text: "x".repeat(2_000_000) }));
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      '"$@" | head -c 10; exit "${PIPESTATUS[0]}"',
      "bash",
      `${ROOT}cli/mcpx`,
      "call",
      "fx.echo",
      "@big.json",
    ],
    env: w.env,
    clearEnv: true,
    cwd: w.dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(new TextDecoder().decode(out.stdout), "xxxxxxxxxx");
  assert.equal(out.code, 0, stderr);
  assert.doesNotMatch(stderr, /BrokenPipe|EPIPE|Broken pipe/);
  assert.doesNotMatch(stderr, STACK_LINE);
});
