import assert from "node:assert/strict";
import { type ExecHookRun, ExecHooks, scriptError } from "./exec_hooks.ts";
import { McpxError } from "../core/errors.ts";

const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
const ALL = { permissions: "all", timeoutMs: 10_000 };

/** A hook appending `<label> <phase> <point> [<error>] <stdin's phase>` to `<dir>/log`. */
function note(dir: string, label: string): string {
  return `read -r ctx; echo "${label} $MCPX_HOOK_PHASE $MCPX_HOOK_POINT [$MCPX_HOOK_ERROR] ` +
    `$(printf "%s" "$ctx" | sed 's/.*"phase":"\\([a-zA-Z]*\\)".*/\\1/')" >> ${dir}/log`;
}

async function inDir(fn: (dir: string, run: ExecHookRun) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir, {
      run: "run-1",
      session: "s",
      script: { name: "x", path: "/x.ts", args: [] },
      cwd: dir,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("ExecHooks runs pre, then onSuccess and post, in the order given, with phase and point", async () => {
  await inDir(async (dir, run) => {
    const hooks = new ExecHooks({
      "hook-pre": [note(dir, "a"), note(dir, "b")],
      "hook-on-success": [note(dir, "c")],
      "hook-on-error": [note(dir, "never")],
      "hook-post": [note(dir, "d")],
    }, ALL);
    assert.deepEqual(hooks.problems, []);
    await hooks.pre(run, { env: ENV, cwd: dir });
    const notes = await hooks.after(run, { exitCode: 0, durationMs: 5 }, { env: ENV, cwd: dir });
    assert.deepEqual(notes, []);
    assert.deepEqual(Deno.readTextFileSync(`${dir}/log`).trim().split("\n"), [
      "a pre script [] pre",
      "b pre script [] pre",
      "c onSuccess script [] onSuccess",
      "d post script [] post",
    ]);
  });
});

Deno.test("ExecHooks gives onError the script's error in one line, and post none; a failing one is a note", async () => {
  await inDir(async (dir, run) => {
    const hooks = new ExecHooks({
      "hook-on-error": [note(dir, "e"), "echo 'cannot page' >&2; exit 2"],
      "hook-on-success": [note(dir, "never")],
      "hook-post": [note(dir, "p")],
    }, ALL);
    const notes = await hooks.after(
      run,
      { exitCode: 1, durationMs: 5, error: "TypeError: bad\n  thing" },
      { env: ENV, cwd: dir },
    );
    assert.deepEqual(Deno.readTextFileSync(`${dir}/log`).trim().split("\n"), [
      "e onError script [TypeError: bad thing] onError",
      "p post script [] post",
    ]);
    assert.equal(notes.length, 1);
    assert.match(
      notes[0],
      /^--hook-on-error `echo 'cannot page' >&2; exit 2` failed: it exited with code 2 \(stderr: cannot page\)$/,
    );
  });
});

Deno.test("ExecHooks stops at a failing pre hook with hook-failed, and runs none after it", async () => {
  await inDir(async (dir, run) => {
    const hooks = new ExecHooks({ "hook-pre": ["exit 3", note(dir, "never")] }, ALL);
    await assert.rejects(
      () => hooks.pre(run, { env: ENV, cwd: dir }),
      (error: unknown) =>
        error instanceof McpxError && error.code === "hook-failed" &&
        /--hook-pre `exit 3` failed: it exited with code 3; the script did not run/.test(
          error.message,
        ),
    );
    assert.throws(() => Deno.statSync(`${dir}/log`));
  });
});

Deno.test("ExecHooks refuses hooks under a sandbox, and empty commands", () => {
  const sandboxed = new ExecHooks({ "hook-post": ["true"], "hook-pre": ["true"] }, {
    permissions: "read,net",
    timeoutMs: 1000,
  });
  assert.deepEqual(sandboxed.problems, [
    "--hook-pre, --hook-post: exec hooks run outside the script's sandbox, so they are refused " +
    "under script.permissions=read,net; drop them, or set script.permissions to all",
  ]);
  const empty = new ExecHooks({ "hook-on-error": [" "] }, ALL);
  assert.deepEqual(empty.problems, [
    "--hook-on-error: the command is empty; give a shell command to run",
  ]);
  assert.equal(new ExecHooks({}, { permissions: "none", timeoutMs: 1 }).problems.length, 0);
});

Deno.test("scriptError() is the reported headline, else how the script ended", () => {
  assert.equal(scriptError(1, "Error: boom"), "Error: boom");
  assert.equal(scriptError(3, undefined), "the script exited with code 3");
  assert.equal(scriptError(143, undefined), "the script was ended by signal 15");
});
