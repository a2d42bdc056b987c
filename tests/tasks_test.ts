/**
 * Tasks against the real server-everything over stdio (MCP 2025-11-25,
 * "Tasks"; decision 0035): its task-only tool (`simulate-research-query`,
 * `execution.taskSupport: "required"`, about 4 s of work) is listed like any
 * tool, a plain `mcpx call` runs it as a task and waits for its result, a
 * script's call does the same, `--task` prints a handle at once, and `mcpx
 * tasks ls|get|result|cancel` follow handles on the instance that made them.
 * One world and one warm daemon.
 */

import assert from "node:assert/strict";
import { stdioServer, world } from "./_helpers.ts";

const TOOL = "everything.simulate_research_query";

interface TaskRow {
  taskId: string;
  namespace: string;
  tool: string;
  instance: string;
  status: string;
  statusMessage?: string;
  expiresAt: string;
}

Deno.test("a task-only tool is called, handed out and followed as a task", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });

  await t.step("ls no longer leaves the task-only tool out; types shows it", async () => {
    const ls = await w.mcpx(["ls"]);
    assert.equal(ls.code, 0, ls.stderr);
    assert.doesNotMatch(ls.stderr, /unusable/);
    const json = await w.json<{ problems: string[] }>(["ls"]);
    assert.deepEqual(json.problems.filter((p) => /simulate-research-query/.test(p)), []);
    const types = await w.mcpx(["types", TOOL]);
    assert.equal(types.code, 0, types.stderr);
    assert.match(types.stdout, /function simulate_research_query\(/);
    assert.match(types.stdout, /topic: string/);
  });

  await t.step("a plain call runs it as a task and waits for the result", async () => {
    const r = await w.mcpx(["call", TOOL, '{"topic":"tides"}']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /# Research Report: tides/);
    // The wait was recorded as a task mcpx made, and it completed.
    const { tasks } = await w.json<{ tasks: TaskRow[] }>(["tasks", "ls"]);
    assert.equal(tasks.length, 1);
    assert.equal(tasks[0].status, "completed");
  });

  await t.step("a plain call's --timeout bounds the wait and cancels the task", async () => {
    const r = await w.mcpx(["call", "--timeout", "1500ms", TOOL, '{"topic":"slow"}']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /did not answer within \d+ ms \(--timeout\)/);
    const { tasks } = await w.json<{ tasks: TaskRow[] }>(["tasks"]);
    assert.equal(tasks.at(-1)?.status, "cancelled", JSON.stringify(tasks));
  });

  await t.step("a script's call of it waits for the result too", async () => {
    const r = await w.mcpx([
      "exec",
      'String(await everything.simulate_research_query({ topic: "kelp" })).split("\\n")[0]',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "# Research Report: kelp");
  });

  let handle = "";
  await t.step("call --task prints a handle at once and exits 0", async () => {
    const started = performance.now();
    const r = await w.mcpx(["call", "--task", TOOL, '{"topic":"coral"}']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(performance.now() - started < 4_000, "it did not wait for the task's ~4 s of work");
    const m = r.stdout.match(/^task (\S+): working/);
    assert.ok(m, r.stdout);
    handle = m[1];
    assert.match(r.stdout, new RegExp(`mcpx tasks get ${handle}`));
    assert.match(r.stdout, new RegExp(`mcpx tasks result ${handle}`));
    assert.match(r.stdout, new RegExp(`mcpx tasks cancel ${handle}`));
  });

  await t.step("tasks get reaches the instance that made it", async () => {
    const row = await w.json<TaskRow>(["tasks", "get", handle]);
    assert.equal(row.taskId, handle);
    assert.equal(row.namespace, "everything");
    assert.equal(row.tool, "simulate-research-query");
    assert.ok(["working", "completed"].includes(row.status), row.status);
  });

  await t.step("tasks result waits for it and prints the tool's result", async () => {
    const r = await w.mcpx(["tasks", "result", handle]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /# Research Report: coral/);
    const row = await w.json<TaskRow>(["tasks", "get", handle]);
    assert.equal(row.status, "completed");
  });

  await t.step("tasks cancel stops a running one", async () => {
    const made = await w.json<{ task: { taskId: string } }>([
      "call",
      "--task",
      TOOL,
      '{"topic":"storms"}',
    ]);
    const id = made.task.taskId;
    const cancelled = await w.json<TaskRow>(["tasks", "cancel", id]);
    assert.equal(cancelled.status, "cancelled");
    const r = await w.mcpx(["tasks", "result", id]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /was cancelled, so it has no result/);
  });

  await t.step("tasks ls lists every task with its state", async () => {
    const { tasks } = await w.json<{ tasks: TaskRow[] }>(["tasks", "ls"]);
    assert.ok(tasks.length >= 4, JSON.stringify(tasks));
    assert.ok(tasks.every((r) => r.namespace === "everything" && r.instance === tasks[0].instance));
    assert.deepEqual(tasks.slice(-2).map((r) => r.status), ["completed", "cancelled"]);
    const human = await w.mcpx(["tasks"]);
    assert.match(human.stdout, /^TASK\s+TOOL\s+STATUS\s+INSTANCE/);
  });

  await t.step("a task whose instance stopped is reported lost with it", async () => {
    assert.equal((await w.mcpx(["restart", "everything"])).code, 0);
    const r = await w.mcpx(["tasks", "get", handle]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /instance i\d+ \(global\), which has stopped \(restart\)/);
    assert.match(r.stderr, /the task was lost with it/);
    const unknown = await w.mcpx(["tasks", "get", "no-such-task"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown task "no-such-task"/);
  });

  await t.step("--task on a tool that cannot run as a task is refused", async () => {
    const r = await w.mcpx(["call", "--task", "everything.echo", '{"message":"hi"}']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /everything\.echo cannot run as a task/);
  });
});
