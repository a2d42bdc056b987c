import assert from "node:assert/strict";
import { HookRunner } from "./hook_runner.ts";
import { EventBus } from "./event_bus.ts";
import { closeLog, openDurableLog, setLogLevel } from "./log.ts";
import { listLogFiles } from "../logs/writer.ts";
import type { HookProcessOptions, HookProcessResult } from "./hook_process.ts";
import type { HookDeclaration } from "../config/hooks.ts";

const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };

/** Runs `fn` with the daemon's log open in a temporary directory; answers its records. */
async function logged(fn: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-hook-log-" });
  try {
    openDurableLog({ dir, source: "hooks-test", maxFileSize: 1 << 20, retentionMs: 0 });
    setLogLevel("debug");
    await fn();
    closeLog();
    return listLogFiles(dir).flatMap((file) =>
      Deno.readTextFileSync(`${dir}/${file}`).trim().split("\n").filter(Boolean)
        .map((line) => JSON.parse(line))
    );
  } finally {
    closeLog();
    setLogLevel("info");
    await Deno.remove(dir, { recursive: true });
  }
}

/** A run seam whose runs end when the test says. */
function heldRuns() {
  const started: { options: HookProcessOptions; end: () => void }[] = [];
  const run = (options: HookProcessOptions) =>
    new Promise<HookProcessResult>((resolve) => {
      started.push({
        options,
        end: () => resolve({ outcome: "ok", durationMs: 1, stderrTail: "", stdoutTail: "" }),
      });
    });
  return { started, run };
}

Deno.test("HookRunner runs each matching hook once per event, with its variables and the event on stdin", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/out`;
    const record =
      `{ echo "$MCPX_HOOK_NAME $MCPX_HOOK_PHASE $MCPX_HOOK_EVENT_KIND $MCPX_HOOK_EVENT_SEQ ` +
      `[$MCPX_HOOK_EVENT_SERVER] [$MCPX_HOOK_EVENT_SESSION] [$MCPX_HOOK_EVENT_URI]"; cat; } >> ${out}`;
    const hooks: HookDeclaration[] = [
      // Matches a crash by both its kinds: still one run.
      { name: "crash", on: ["server", "server.crashed"], command: record, servers: ["fs"] },
      { name: "calls", on: ["call.finished"], command: record },
    ];
    const bus = new EventBus({ epoch: "e1" });
    const runner = new HookRunner({ hooks, timeoutMs: 10_000, concurrency: 1, env: ENV });
    runner.attach(bus);
    bus.publish("server.crashed", { server: "fs", data: { exitCode: 3 } });
    bus.publish("server.crashed", { server: "other", data: {} });
    bus.publish("call.finished", { server: "fs", session: "s1", data: {} });
    bus.publish("resource.updated", { server: "fs", uri: "file:///x", data: {} });
    bus.publish("server.started", { server: "fs", data: {} });
    await runner.idle();
    const lines = Deno.readTextFileSync(out).trim().split("\n");
    assert.deepEqual(lines.filter((_, i) => i % 2 === 0), [
      "crash observe server.crashed 1 [fs] [] []",
      "calls observe call.finished 3 [fs] [s1] []",
      "crash observe server.started 5 [fs] [] []",
    ]);
    assert.deepEqual(JSON.parse(lines[1]), {
      id: "e1-1",
      seq: 1,
      kind: "server.crashed",
      at: JSON.parse(lines[1]).at,
      server: "fs",
      data: { exitCode: 3 },
    });
    assert.deepEqual(runner.counts, { started: 3, failed: 0, dropped: 0, refused: 0 });
    await runner.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("HookRunner starts nothing inside publish, runs at most `concurrency`, and drops past its queue with one record", async () => {
  const { started, run } = heldRuns();
  const hooks: HookDeclaration[] = [{ name: "slow", on: ["call"], command: "x" }];
  const records = await logged(async () => {
    const bus = new EventBus();
    const runner = new HookRunner({
      hooks,
      timeoutMs: 1000,
      concurrency: 2,
      queueLimit: 3,
      env: ENV,
      run,
    });
    runner.attach(bus);
    for (let i = 0; i < 10; i++) bus.publish("call.finished", { data: {} });
    assert.equal(started.length, 0, "a hook started inside publish");
    await Promise.resolve();
    assert.equal(started.length, 2);
    assert.equal(runner.queued, 1);
    assert.equal(runner.counts.dropped, 7);
    assert.deepEqual(started.map((s) => s.options.env.MCPX_HOOK_EVENT_SEQ), ["1", "2"]);
    // Ending a run frees a slot for the one waiting (started grows as the loop goes).
    for (let i = 0; i < started.length; i++) {
      started[i].end();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await runner.idle();
    assert.deepEqual(started.map((s) => s.options.env.MCPX_HOOK_EVENT_SEQ), ["1", "2", "3"]);
    await runner.close();
  });
  const drops = records.filter((r) => r.event === "hook.dropped");
  assert.equal(drops.length, 1, JSON.stringify(drops));
  assert.equal((drops[0].attrs as Record<string, unknown>).count, 7);
});

Deno.test("HookRunner logs a failing, a hanging and a missing hook with its name, seq, reason and stderr", async () => {
  const hooks: HookDeclaration[] = [
    { name: "fails", on: ["server.crashed"], command: "echo 'no disk' >&2; exit 3" },
    { name: "hangs", on: ["server.crashed"], command: "sleep 30", timeoutMs: 200 },
    { name: "missing", on: ["server.crashed"], command: ["/nonexistent/hook"] },
  ];
  const records = await logged(async () => {
    const bus = new EventBus();
    const runner = new HookRunner({ hooks, timeoutMs: 10_000, concurrency: 4, env: ENV });
    runner.attach(bus);
    bus.publish("server.crashed", { server: "fs", data: {} });
    await runner.idle();
    assert.equal(runner.counts.failed, 3);
    await runner.close();
  });
  const failed = records.filter((r) => r.event === "hook.failed");
  const attrs = (name: string) => {
    const r = failed.find((f) => (f.attrs as Record<string, unknown>).hook === name);
    assert.ok(r, `no hook.failed record for ${name}: ${JSON.stringify(failed)}`);
    return r.attrs as Record<string, unknown>;
  };
  assert.equal(attrs("fails").exitCode, 3);
  assert.equal(attrs("fails").seq, 1);
  assert.equal(attrs("fails").stderr, "no disk");
  assert.equal(attrs("hangs").outcome, "timeout");
  assert.match(String(attrs("hangs").reason), /timeout of 200 ms/);
  assert.equal(attrs("missing").outcome, "not-found");
  assert.match(String(attrs("missing").reason), /\/nonexistent\/hook does not exist/);
});

Deno.test("HookRunner runs no hook while refused, says so once, and runs again once allowed", async () => {
  const { started, run } = heldRuns();
  let refusal: string | undefined = "/p/.mcp.json is a project's configuration not trusted yet";
  const records = await logged(async () => {
    const bus = new EventBus();
    const runner = new HookRunner({
      hooks: [{ name: "h", on: ["server"], command: "x" }],
      timeoutMs: 1000,
      concurrency: 4,
      env: ENV,
      run,
      refused: () => refusal,
    });
    runner.attach(bus);
    bus.publish("server.crashed", { data: {} });
    bus.publish("server.crashed", { data: {} });
    await runner.idle();
    assert.equal(started.length, 0);
    assert.equal(runner.counts.refused, 2);
    refusal = undefined;
    bus.publish("server.crashed", { data: {} });
    await Promise.resolve();
    assert.deepEqual(started.map((s) => s.options.env.MCPX_HOOK_EVENT_SEQ), ["3"]);
    started[0].end();
    await runner.idle();
    await runner.close();
  });
  const untrusted = records.filter((r) => r.event === "hook.untrusted");
  assert.equal(untrusted.length, 1);
  assert.match(JSON.stringify(untrusted[0]), /not trusted yet/);
});

Deno.test("HookRunner.close() ends a running hook and drops what waits", async () => {
  const bus = new EventBus();
  const runner = new HookRunner({
    hooks: [{ name: "h", on: ["server"], command: "sleep 30" }],
    timeoutMs: 60_000,
    concurrency: 1,
    env: ENV,
  });
  runner.attach(bus);
  bus.publish("server.crashed", { data: {} });
  bus.publish("server.crashed", { data: {} });
  await Promise.resolve();
  assert.equal(runner.running, 1);
  await runner.close();
  assert.equal(runner.running, 0);
  assert.equal(runner.queued, 0);
  assert.equal(runner.counts.started, 1);
});
