/**
 * A call timeout interrupts a hung server for real: the call fails at the
 * limit with an error naming it, the server is told (its request is aborted
 * or it receives `notifications/cancelled` for that request id), and the
 * next call is answered at once (spec 000, "Cancellation reaches the
 * transport" and "Honest failure reporting").
 */

import assert from "node:assert/strict";
import {
  type Background,
  background,
  eventually,
  fixtureArgv,
  fixtureServer,
  launcherArgv,
  processesMarked,
  type RunResult,
  STACK_LINE,
  type World,
  world,
} from "./_helpers.ts";
import { frontSocket } from "../cli/relay/front_socket.ts";
import { existsSync } from "../core/exists.ts";

/** Longest any single CLI run may take before the test kills it and fails. */
const RUN_LIMIT_MS = 30_000;

/** `mcpx <args>` in world `w`, killed (and reported) if it outlives `limitMs`; with its duration. */
async function mcpx(
  w: World,
  args: string[],
  limitMs = RUN_LIMIT_MS,
): Promise<RunResult & { ms: number }> {
  const started = performance.now();
  const result = await w.mcpx(args, { timeoutMs: limitMs });
  return { ...result, ms: performance.now() - started };
}

/** `mcpx --json <args>` in world `w`, bounded like {@link mcpx}, parsed. */
async function json(w: World, args: string[]): Promise<any> {
  const result = await mcpx(w, ["--json", ...args]);
  assert.equal(result.code, 0, `mcpx ${args.join(" ")}:\n${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** The JSON lines a fixture printed so far (other lines skipped). */
function events(process: Background): Record<string, any>[] {
  return process.output().split("\n").flatMap((line) => {
    try {
      const value = JSON.parse(line);
      return value && typeof value === "object" && !Array.isArray(value) ? [value] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Starts tests/fixtures/servers/hanging_http.ts on a free port and returns it
 * with its URL. It does not carry the world's mark: `w.processes()` lists
 * only what mcpx started.
 */
async function hangingHttp(w: World): Promise<{ url: string; process: Background }> {
  const env = { ...w.env };
  delete env.MCPX_TEST_MARK;
  const [deno, ...args] = fixtureArgv("hanging_http");
  const process = background(deno, args, { env, cwd: w.dir });
  const listening = () => events(process).find((e) => e.event === "listening");
  await eventually(() => process.exited() || listening() !== undefined, 30_000);
  const port = listening()?.port;
  if (typeof port !== "number") {
    await process[Symbol.asyncDispose]();
    throw new Error(`hanging_http.ts did not start listening:\n${process.output()}`);
  }
  return { url: `http://127.0.0.1:${port}/mcp`, process };
}

Deno.test("call: callTimeout interrupts a Streamable HTTP server that never answers, and the server sees the request end", async () => {
  await using w = await world();
  const server = await hangingHttp(w);
  await using _server = server.process;
  await w.writeConfig({
    mcpServers: { remote: { url: server.url, transport: "http", mcpx: { callTimeout: "1s" } } },
  });
  // Start the daemon and connect first, so the hung call's time is the timeout's.
  const warm = await mcpx(w, ["call", "remote.echo", '{"text":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  assert.equal(warm.stdout, "warm\n");

  const hung = await mcpx(w, ["call", "remote.hang", "{}"]);
  assert.equal(hung.code, 1, hung.stdout);
  assert.match(hung.stderr, /remote\.hang did not answer within 1000 ms \(callTimeout\)/);
  assert.doesNotMatch(hung.stderr, STACK_LINE);
  assert.ok(hung.ms >= 1000, `returned before the limit: ${hung.ms} ms`);
  assert.ok(hung.ms < 6000, `returned ${hung.ms - 1000} ms after the limit`);

  const id = events(server.process).find((e) => e.event === "hang")?.id;
  assert.notEqual(id, undefined, `the call reached the server:\n${server.process.output()}`);
  const saw = (event: string, key: string) => () =>
    events(server.process).some((e) => e.event === event && e[key] === id);
  assert.ok(
    await eventually(saw("cancelled", "requestId"), 5000),
    `notifications/cancelled for request ${id}:\n${server.process.output()}`,
  );
  assert.ok(
    await eventually(saw("aborted", "id"), 5000),
    `the POST of request ${id} is closed, not left open:\n${server.process.output()}`,
  );

  const next = await mcpx(w, ["call", "remote.echo", '{"text":"next"}']);
  assert.equal(next.code, 0, next.stderr);
  assert.equal(next.stdout, "next\n");
  assert.ok(next.ms < 5000, `the next call took ${next.ms} ms`);

  assert.equal((await mcpx(w, ["stop"])).code, 0);
  assert.ok(await eventually(() => w.processes().length === 0), `left: ${w.processes()}`);
});

Deno.test("call: callTimeout sends notifications/cancelled to a hung stdio server and releases its only lease", async () => {
  await using w = await world();
  const stdinLog = `${w.dir}/server-stdin.jsonl`;
  const fixture = fixtureServer();
  // What the server reads, copied on its way in: the fixture itself is unchanged.
  await w.writeConfig({
    mcpServers: {
      slow: {
        command: "sh",
        args: ["-c", 'tee -a "$STDIN_LOG" | "$@"', "sh", fixture.command, ...fixture.args],
        env: { STDIN_LOG: stdinLog },
        mcpx: { callTimeout: "1s", sharing: "exclusive", max: 1 },
      },
    },
  });
  const received = async (): Promise<Record<string, any>[]> => {
    const text = await Deno.readTextFile(stdinLog).catch(() => "");
    return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  };
  const warm = await mcpx(w, ["call", "slow.echo", '{"text":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  const pid = (await json(w, ["status"])).servers[0].instances[0].pid;

  const hung = await mcpx(w, ["call", "slow.hang", "{}"]);
  assert.equal(hung.code, 1, hung.stdout);
  assert.match(hung.stderr, /slow\.hang did not answer within 1000 ms \(callTimeout\)/);
  assert.doesNotMatch(hung.stderr, STACK_LINE);
  assert.ok(hung.ms >= 1000 && hung.ms < 6000, `took ${hung.ms} ms`);

  const call = (await received()).find((m) =>
    m.method === "tools/call" && m.params.name === "hang"
  );
  assert.ok(call, "the call reached the server");
  assert.ok(
    await eventually(
      async () =>
        (await received()).some((m) =>
          m.method === "notifications/cancelled" && m.params.requestId === call.id
        ),
      5000,
    ),
    `notifications/cancelled for request ${call.id}:\n${await Deno.readTextFile(stdinLog)}`,
  );

  // max 1, exclusive: the next call needs the lease the hung call held.
  const next = await mcpx(w, ["call", "slow.echo", '{"text":"next"}']);
  assert.equal(next.code, 0, next.stderr);
  assert.equal(next.stdout, "next\n");
  assert.ok(next.ms < 5000, `the next call waited ${next.ms} ms for the lease`);
  const { servers } = await json(w, ["status"]);
  assert.deepEqual(
    servers[0].instances.map((i: { pid: number }) => i.pid),
    [pid],
    "the same instance answers: the timeout released the lease, it did not replace the server",
  );

  assert.equal((await mcpx(w, ["stop"])).code, 0);
  assert.ok(await eventually(() => w.processes().length === 0), `left: ${w.processes()}`);
});

/**
 * Starts `mcpx call remote.hang {}` through the launcher (off a terminal, as
 * an agent's shell runs it), waits until the call reached the server, and
 * sends SIGINT to the `mcpx` process alone (as `kill -INT <pid>` does, not to
 * its process group).
 *
 * @returns The exit status, or undefined when `mcpx` still ran 10 s later;
 *   and whether the server then saw the call's request end.
 */
async function interruptHungCall(
  w: World,
  server: { process: Background },
): Promise<{ status?: Deno.CommandStatus; ended: boolean; output: string }> {
  const [launcher, ...args] = launcherArgv(["call", "remote.hang", "{}"]);
  const child = new Deno.Command(launcher, {
    args,
    env: w.env,
    clearEnv: true,
    cwd: w.dir,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const hung = () => events(server.process).find((e) => e.event === "hang")?.id;
  assert.ok(await eventually(() => hung() !== undefined, 30_000), server.process.output());
  child.kill("SIGINT");
  const status = await Promise.race([
    child.status,
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000)),
  ]);
  if (!status) {
    child.kill("SIGKILL");
    await child.status;
  }
  const id = hung();
  const ended = await eventually(
    () => events(server.process).some((e) => e.event === "aborted" && e.id === id),
    10_000,
  );
  return { ...(status ? { status } : {}), ended, output: server.process.output() };
}

Deno.test("call: an interrupted relayed call (SIGINT to `mcpx`, the front running) is cancelled at the server", async () => {
  await using w = await world();
  const server = await hangingHttp(w);
  await using _server = server.process;
  await w.writeConfig({ mcpServers: { remote: { url: server.url, transport: "http" } } });
  // The first command starts the daemon, and the front that the next one is relayed to.
  const warm = await mcpx(w, ["call", "remote.echo", '{"text":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  const front = frontSocket(w.env);
  assert.ok(await eventually(() => existsSync(front), 30_000), "no front started");

  const { status, ended, output } = await interruptHungCall(w, server);
  assert.ok(status, "mcpx went on running after SIGINT");
  assert.notEqual(status.code, 0);
  assert.ok(ended, `the interrupted call's request stays open at the server:\n${output}`);
});

Deno.test("call: with no front running, SIGINT to `mcpx` reaches the command it runs, and the server sees the request end", async () => {
  await using w = await world();
  const server = await hangingHttp(w);
  await using _server = server.process;
  await w.writeConfig({ mcpServers: { remote: { url: server.url, transport: "http" } } });
  // The daemon is warm; no front runs, so the thin client runs the command in a child.
  const warm = await mcpx(w, ["call", "remote.echo", '{"text":"warm"}'], RUN_LIMIT_MS);
  assert.equal(warm.code, 0, warm.stderr);
  for (const pid of processesMarked(w.mark, { front: true })) {
    if (!w.processes().includes(pid)) Deno.kill(pid, "SIGKILL");
  }
  await Deno.remove(frontSocket(w.env)).catch(() => {});

  const { status, ended, output } = await interruptHungCall(w, server);
  assert.ok(status, "mcpx went on running after SIGINT");
  assert.notEqual(status.code, 0);
  assert.ok(ended, `the interrupted call's request stays open at the server:\n${output}`);
});
