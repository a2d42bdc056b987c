import assert from "node:assert/strict";
import { RELATED_TASK, ServeTaskStore, TASK_PAGE_SIZE, TaskRequestError } from "./serve_tasks.ts";

const ok = (text: string) => ({ content: [{ type: "text", text }] });

Deno.test("ServeTaskStore: a task runs in the background, ends completed, and its result names it", async () => {
  const store = new ServeTaskStore(60_000);
  const gate = Promise.withResolvers<void>();
  const made = store.create(5_000, async () => {
    await gate.promise;
    return ok("done");
  });
  assert.equal(made.status, "working");
  assert.equal(made.ttl, 5_000);
  assert.ok(made.pollInterval > 0);
  assert.equal(store.get(made.taskId).status, "working");
  gate.resolve();
  const result = await store.result(made.taskId);
  assert.deepEqual(result.content, [{ type: "text", text: "done" }]);
  assert.deepEqual((result._meta as Record<string, unknown>)[RELATED_TASK], {
    taskId: made.taskId,
  });
  assert.equal(store.get(made.taskId).status, "completed");
});

Deno.test("ServeTaskStore: a tool error or a throw ends the task failed", async () => {
  const store = new ServeTaskStore(60_000);
  const errored = store.create(undefined, () => Promise.resolve({ ...ok("no"), isError: true }));
  const thrown = store.create(undefined, () => Promise.reject(new Error("daemon gone")));
  assert.equal((await store.result(errored.taskId)).isError, true);
  const r = await store.result(thrown.taskId);
  assert.equal(r.isError, true);
  assert.match(JSON.stringify(r.content), /daemon gone/);
  assert.equal(store.get(errored.taskId).status, "failed");
  assert.equal(store.get(thrown.taskId).status, "failed");
});

Deno.test("ServeTaskStore: cancel aborts the call's signal; an ended task cannot be cancelled", async () => {
  const store = new ServeTaskStore(60_000);
  let aborted = false;
  const made = store.create(
    undefined,
    (signal) =>
      new Promise((resolve) =>
        signal.addEventListener("abort", () => {
          aborted = true;
          resolve(ok("stopped"));
        })
      ),
  );
  assert.equal(store.cancel(made.taskId).status, "cancelled");
  assert.ok(aborted);
  const r = await store.result(made.taskId);
  assert.equal(r.isError, true, "a cancelled task's result says so");
  assert.equal(store.get(made.taskId).status, "cancelled", "the late answer does not revive it");
  assert.throws(() => store.cancel(made.taskId), /already ended \(cancelled\)/);
});

Deno.test("ServeTaskStore: the TTL is held to the maximum, and a task past it is forgotten and stopped", () => {
  let now = 1_000_000;
  const store = new ServeTaskStore(10_000, () => now);
  assert.equal(store.create(999_999, () => Promise.resolve(ok("x"))).ttl, 10_000);
  assert.equal(store.create(undefined, () => Promise.resolve(ok("x"))).ttl, 10_000);
  let stopped = false;
  const long = store.create(
    1_000,
    (signal) =>
      new Promise((resolve) =>
        signal.addEventListener("abort", () => {
          stopped = true;
          resolve(ok("late"));
        })
      ),
  );
  now += 1_001;
  assert.throws(() => store.get(long.taskId), TaskRequestError);
  assert.ok(stopped);
  assert.throws(() => store.get("never"), /never made on this connection, or its TTL passed/);
  assert.throws(() => new ServeTaskStore(0), RangeError);
});

Deno.test("ServeTaskStore.list() pages with a cursor it handed out, and refuses another", () => {
  const store = new ServeTaskStore(60_000);
  const ids = Array.from(
    { length: TASK_PAGE_SIZE + 2 },
    () => store.create(undefined, () => new Promise(() => {})).taskId,
  );
  const first = store.list();
  assert.equal(first.tasks.length, TASK_PAGE_SIZE);
  assert.ok(first.nextCursor);
  const second = store.list(first.nextCursor);
  assert.deepEqual(
    [...first.tasks, ...second.tasks].map((t) => t.taskId),
    ids,
  );
  assert.equal(second.nextCursor, undefined);
  assert.throws(() => store.list("bogus"), /not one this server handed out/);
  store.close();
  assert.deepEqual(store.list().tasks, []);
});

Deno.test("ServeTaskStore.ask() holds a question as input_required until tasks/result opens a channel", async () => {
  const store = new ServeTaskStore(60_000);
  const asked = Promise.withResolvers<void>();
  const made = store.create(undefined, async (_signal, taskId) => {
    const pending = store.ask(taskId, (channel) => Promise.resolve(`answered on ${channel}`));
    asked.resolve();
    return ok(await pending);
  });
  await asked.promise;
  assert.equal(store.get(made.taskId).status, "input_required");
  const result = await store.result(made.taskId, undefined, "the result request");
  assert.deepEqual(result.content, [{ type: "text", text: "answered on the result request" }]);
  assert.equal(store.get(made.taskId).status, "completed");
});

Deno.test("ServeTaskStore.ask() gives up when the task is cancelled first", async () => {
  const store = new ServeTaskStore(60_000);
  const asked = Promise.withResolvers<void>();
  const made = store.create(undefined, async (_signal, taskId) => {
    const pending = store.ask(taskId, () => Promise.resolve("never"));
    asked.resolve();
    return ok(await pending);
  });
  await asked.promise;
  store.cancel(made.taskId);
  const result = await store.result(made.taskId);
  assert.equal(result.isError, true);
  assert.equal(store.get(made.taskId).status, "cancelled");
});
