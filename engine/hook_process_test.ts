import assert from "node:assert/strict";
import { runHookProcess } from "./hook_process.ts";
import { processStart } from "./process_groups.ts";
import { pollUntil } from "../core/deadline.ts";

const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOOK_VAR: "seen" };

/** True once `pid` is gone or a zombie. */
function gone(pid: number): boolean {
  const now = processStart(pid);
  return now === undefined || now.zombie;
}

Deno.test("runHookProcess() gives the hook its stdin and environment, and keeps its output", async () => {
  const r = await runHookProcess({
    command: 'read -r line; echo "$HOOK_VAR $line"; echo oops >&2',
    env: ENV,
    stdin: '{"seq":7}\n',
    timeoutMs: 10_000,
  });
  assert.equal(r.outcome, "ok");
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdoutTail, 'seen {"seq":7}\n');
  assert.equal(r.stderrTail, "oops\n");
});

Deno.test("runHookProcess() runs an argv command without a shell", async () => {
  const r = await runHookProcess({
    command: ["sh", "-c", 'echo "$0 $1"', "a b", "$HOME"],
    env: ENV,
    stdin: "",
    timeoutMs: 10_000,
  });
  assert.equal(r.stdoutTail, "a b $HOME\n");
});

Deno.test("runHookProcess() reports a failing hook's exit code and stderr", async () => {
  const r = await runHookProcess({
    command: "echo broken >&2; exit 4",
    env: ENV,
    stdin: "{}",
    timeoutMs: 10_000,
  });
  assert.equal(r.outcome, "failed");
  assert.equal(r.exitCode, 4);
  assert.equal(r.stderrTail, "broken\n");
  assert.match(r.reason!, /exited with code 4/);
});

Deno.test("runHookProcess() says a missing program was not found, without starting anything", async () => {
  const r = await runHookProcess({
    command: ["/nonexistent/mcpx-hook"],
    env: ENV,
    stdin: "{}",
    timeoutMs: 10_000,
  });
  assert.equal(r.outcome, "not-found");
  assert.equal(r.pid, undefined);
  assert.match(r.reason!, /\/nonexistent\/mcpx-hook does not exist; fix the hook's command/);
  const shell = await runHookProcess({
    command: "mcpx-no-such-command-xyz",
    env: ENV,
    stdin: "",
    timeoutMs: 10_000,
  });
  assert.equal(shell.exitCode, 127);
  assert.match(shell.reason!, /the shell did not find the command/);
});

Deno.test("runHookProcess() kills a hook past its timeout, its whole process group", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pidFile = `${dir}/child.pid`;
    const r = await runHookProcess({
      // The grandchild ignores nothing but would outlive a kill of the shell alone.
      command: `sleep 60 & echo $! > ${pidFile}; wait`,
      env: ENV,
      stdin: "{}",
      timeoutMs: 300,
    });
    assert.equal(r.outcome, "timeout");
    assert.match(r.reason!, /ran past its timeout of 300 ms/);
    const grandchild = Number(Deno.readTextFileSync(pidFile).trim());
    assert.ok(await pollUntil(() => gone(grandchild) || undefined, 5000, 20), "sleep outlived it");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runHookProcess() ends what a finished hook left running in its group", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pidFile = `${dir}/child.pid`;
    const r = await runHookProcess({
      command: `sleep 60 >/dev/null 2>&1 & echo $! > ${pidFile}`,
      env: ENV,
      stdin: "",
      timeoutMs: 10_000,
    });
    assert.equal(r.outcome, "ok");
    const grandchild = Number(Deno.readTextFileSync(pidFile).trim());
    assert.ok(await pollUntil(() => gone(grandchild) || undefined, 5000, 20), "sleep outlived it");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runHookProcess() stops a hook when its signal aborts", async () => {
  const controller = new AbortController();
  const running = runHookProcess({
    command: "echo started; sleep 60",
    env: ENV,
    stdin: "",
    timeoutMs: 60_000,
    signal: controller.signal,
  });
  controller.abort();
  const r = await running;
  assert.equal(r.outcome, "cancelled");
});
