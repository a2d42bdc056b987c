import assert from "node:assert/strict";
import { frontAnswerer } from "./front.ts";
import { relayable } from "./thin.ts";
import { VERSION } from "../../core/version.ts";
import type { Io } from "../../core/io.ts";

const request = (argv: string[], cwd = "/w", version = VERSION) =>
  JSON.stringify({ version, argv, cwd, env: { HOME: "/h" }, callerPid: 42 });

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
  const answer = frontAnswerer({ run });
  const answers = await Promise.all([
    answer(request(["ls"])),
    answer(request(["types"], "/other")),
  ]);
  assert.equal(most, 1, "never two at once: the notice queue is per process");
  assert.deepEqual(answers, [
    { stdout: "out ls\n", stderr: "err ls\n", code: 0 },
    { stdout: "out types\n", stderr: "err types\n", code: 1 },
  ]);
  assert.deepEqual(seen, [[["ls"], "/w", "/h", 42], [["types"], "/other", "/h", 42]]);
});

Deno.test("the front refuses a client of another version, a malformed or oversized request, running nothing", async () => {
  let ran = 0;
  let stale = 0;
  const answer = frontAnswerer({
    run: () => Promise.resolve(ran++),
    onOtherVersion: () => stale++,
  });
  const other = await answer(request(["ls"], "/w", "0.0.0-other")) as { refused?: string };
  assert.match(other.refused ?? "", /this front is mcpx .*, the client 0\.0\.0-other/);
  assert.equal(stale, 1, "a stale front is told to go");
  assert.ok("refused" in await answer("{not json"));
  assert.ok("refused" in await answer(JSON.stringify({ version: VERSION, argv: "ls" })));
  assert.ok("refused" in await answer(undefined), "over the size limit");
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
