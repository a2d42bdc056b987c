import assert from "node:assert/strict";
import { checkTtl, TaskTable } from "./task_table.ts";

const instance = { id: "i1", closed: false, key: "global" };

function made(taskId: string, ttl: number | null = null) {
  return {
    taskId,
    namespace: "everything",
    tool: "simulate-research-query",
    instance,
    caller: { session: "s1" },
    task: {
      taskId,
      status: "working" as const,
      ttl,
      createdAt: "2026-01-01T00:00:00Z",
      lastUpdatedAt: "2026-01-01T00:00:00Z",
    },
  };
}

Deno.test("TaskTable.get() answers an entry until its TTL, then forgets it", () => {
  const table = new TaskTable(60_000);
  table.add(made("t1"), 1_000);
  assert.equal(table.get("t1", 60_999)?.instance.id, "i1");
  assert.equal(table.get("t1", 61_000), undefined);
  // Forgotten, not hidden: an earlier time no longer finds it either.
  assert.equal(table.get("t1", 2_000), undefined);
});

Deno.test("TaskTable.add() keeps the shorter of the TTL asked for and the server's", () => {
  const table = new TaskTable(300_000);
  assert.equal(table.add(made("short", 10_000), 0).expiresAt, 10_000);
  assert.equal(table.add(made("long", 900_000), 0).expiresAt, 300_000);
  assert.equal(table.add(made("unbounded", null), 0).expiresAt, 300_000);
  assert.equal(table.add(made("asked", null), 0, 5_000).expiresAt, 5_000);
});

Deno.test("TaskTable.list() answers live entries oldest first and forgets expired ones", () => {
  const table = new TaskTable(10_000);
  table.add(made("b"), 2_000);
  table.add(made("a"), 1_000);
  table.add(made("old"), 0, 500);
  assert.deepEqual(table.list(1_500).map((e) => e.taskId), ["a", "b"]);
  assert.equal(table.get("old", 0), undefined);
  assert.deepEqual(table.list(11_500).map((e) => e.taskId), ["b"]);
});

Deno.test("TaskTable.update() keeps the server's latest status; delete() forgets", () => {
  const table = new TaskTable(10_000);
  table.add(made("t1"), 0);
  table.update({ ...made("t1").task, status: "completed", statusMessage: "done" });
  table.update({ ...made("nobody").task, status: "failed" });
  assert.equal(table.get("t1", 1)?.task.status, "completed");
  assert.equal(table.get("t1", 1)?.task.statusMessage, "done");
  assert.equal(table.get("nobody", 1), undefined);
  table.delete("t1");
  assert.equal(table.get("t1", 1), undefined);
});

Deno.test("TaskTable refuses a TTL that is zero, negative or fractional", () => {
  for (const bad of [0, -1, 1.5, NaN, Infinity]) {
    assert.throws(() => new TaskTable(bad), { name: "RangeError", message: /never expires/ });
  }
  assert.throws(() => checkTtl(0, "taskTtlMs"), { message: /^taskTtlMs must be/ });
  assert.equal(checkTtl(1, "x"), 1);
});
