import assert from "node:assert/strict";
import * as tasksCommand from "./tasks.ts";
import { runHandler } from "../outcome_render.ts";
import { memoryIo } from "../../core/io.ts";
import type { CliContext } from "../context.ts";

const ROW = {
  taskId: "t 1",
  namespace: "fx",
  tool: "slow",
  instance: "i1",
  key: "global",
  status: "working",
  createdAt: "2025-01-01T00:00:00.000Z",
  expiresAt: "2025-01-01T00:05:00.000Z",
};

/** A context with a configuration whose daemon answers each route from `answers`. */
function fake(answers: Record<string, unknown>) {
  const io = memoryIo();
  const sent: string[] = [];
  const ctx = {
    io,
    env: {},
    cwd: "/",
    config: () => Promise.resolve({ path: "/p/.mcp.json", servers: [] }),
    request: (route: string) => {
      sent.push(route);
      return Promise.resolve(answers[route]);
    },
  } as unknown as CliContext;
  return { ctx, io, sent };
}

Deno.test("handle() answers each action's document: the list, a row, a result (failed when isError)", async () => {
  const error = { content: [{ type: "text", text: "no" }], isError: true };
  const { ctx, sent } = fake({ tasks: [ROW], taskGet: ROW, taskResult: error });
  assert.deepEqual(await tasksCommand.handle(ctx, {}), { kind: "ok", value: { tasks: [ROW] } });
  assert.deepEqual(await tasksCommand.handle(ctx, { action: "get", id: "t 1" }), {
    kind: "ok",
    value: ROW,
  });
  assert.deepEqual(await tasksCommand.handle(ctx, { action: "result", id: "t 1" }), {
    kind: "failed",
    value: error,
  });
  assert.deepEqual(sent, ["tasks", "taskGet", "taskResult"]);
});

Deno.test("runHandler() prints tasks' texts: a row with its next command, a failed result on stderr", async () => {
  const error = { content: [{ type: "text", text: "no" }], isError: true };
  const { ctx, io } = fake({ tasks: [], taskGet: ROW, taskResult: error });
  assert.equal(await runHandler(ctx, tasksCommand, { action: "get", id: "t 1" }, false), 0);
  assert.equal(
    io.stdout,
    "task t 1 (fx.slow): working\n  wait for its result: mcpx tasks result 't 1'\n",
  );
  io.stdout = "";
  assert.equal(await runHandler(ctx, tasksCommand, { action: "result", id: "t 1" }, false), 1);
  assert.equal(io.stdout, "");
  assert.equal(io.stderr, "task t 1 ended with an error:\nno\n");
  assert.equal(
    await runHandler(ctx, tasksCommand, { action: "result", raw: true, id: "t" }, false),
    1,
  );
  assert.equal(io.stdout, JSON.stringify(error, null, 2) + "\n");
  io.stdout = "";
  assert.equal(await runHandler(ctx, tasksCommand, {}, false), 0);
  assert.equal(io.stdout, "no tasks: `mcpx call --task <namespace>.<tool> '{…}'` makes one\n");
});
