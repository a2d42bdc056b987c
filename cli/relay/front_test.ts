import assert from "node:assert/strict";
import { frontHandler } from "./front.ts";
import { relayable } from "./thin.ts";
import { VERSION } from "../../core/version.ts";
import { VERSION_HEADER } from "../../wire/wire.ts";
import type { Io } from "../../core/io.ts";

const post = (body: unknown, version: string | null = VERSION) =>
  new Request("http://front/v1/command", {
    method: "POST",
    headers: version ? { [VERSION_HEADER]: version } : {},
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const command = (argv: string[], cwd = "/w") => ({ argv, cwd, env: { HOME: "/h" }, callerPid: 42 });

Deno.test("the front runs one relayed command line at a time, with the caller's directory, environment and pid", async () => {
  const seen: unknown[] = [];
  let running = 0;
  let most = 0;
  const run = async (
    argv: string[],
    io?: Io,
    env?: Record<string, string>,
    cwd?: string,
    caller?: { callerPid?: number },
  ) => {
    running++;
    most = Math.max(most, running);
    seen.push([argv, cwd, env?.HOME, caller?.callerPid]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    io!.out(`out ${argv[0]}\n`);
    io!.err(`err ${argv[0]}\n`);
    running--;
    return argv[0] === "types" ? 1 : 0;
  };
  const handle = frontHandler(run);
  const answers = await Promise.all([
    handle(post(command(["ls"]))),
    handle(post(command(["types"], "/other"))),
  ]);
  assert.equal(most, 1, "never two at once: the notice queue is per process");
  assert.deepEqual(await answers[0].json(), { stdout: "out ls\n", stderr: "err ls\n", code: 0 });
  assert.deepEqual(await answers[1].json(), {
    stdout: "out types\n",
    stderr: "err types\n",
    code: 1,
  });
  assert.deepEqual(seen, [[["ls"], "/w", "/h", 42], [["types"], "/other", "/h", 42]]);
});

Deno.test("the front refuses a client of another version, a malformed body and a wrong path, running nothing", async () => {
  let ran = 0;
  let stale = 0;
  const handle = frontHandler(() => Promise.resolve(ran++), () => {}, () => stale++);
  assert.equal((await handle(post(command(["ls"]), "0.0.0-other"))).status, 409);
  assert.equal(stale, 1, "a stale front is told to go");
  assert.equal((await handle(post("{not json"))).status, 400);
  assert.equal((await handle(post({ argv: "ls", cwd: "/", env: {}, callerPid: 1 }))).status, 400);
  assert.equal((await handle(post("x".repeat(600 * 1024)))).status, 413);
  const wrongPath = new Request("http://front/v1/other", { method: "POST", body: "{}" });
  assert.equal((await handle(wrongPath)).status, 404);
  assert.equal(ran, 0);
});

Deno.test("relayable(): the warm commands, off a terminal, not reading stdin", () => {
  assert.equal(relayable(["ls"], false), true);
  assert.equal(relayable(["--json", "call", "a.b", "{}"], false), true);
  assert.equal(relayable(["ls"], true), false, "a terminal gets progress and questions here");
  assert.equal(relayable(["call", "a.b", "-"], false), false, "stdin is this process's");
  assert.equal(relayable(["run", "./s.ts"], false), false);
  assert.equal(relayable(["--version"], false), false);
  assert.equal(relayable([], false), false);
});
