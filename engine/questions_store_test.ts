import assert from "node:assert/strict";
import { newQuestionId, type QuestionRow, QuestionStore } from "./questions_store.ts";

const row = (over: Partial<QuestionRow> = {}): QuestionRow => ({
  id: newQuestionId(),
  kind: "elicitation",
  daemon: "d1",
  server: "s",
  namespace: "s",
  mode: "form",
  message: "which repo?",
  request: { message: "which repo?", requestedSchema: { type: "object", properties: {} } },
  route: "agent",
  reason: "r",
  created: 1_000,
  deadline: 2_000,
  state: "open",
  ...over,
});

Deno.test("QuestionStore marks an open question expired when it is read past its deadline", async () => {
  const dir = await Deno.makeTempDir();
  try {
    using store = new QuestionStore(`${dir}/questions.db`);
    const q = row();
    store.add(q);
    assert.equal(store.get(q.id, 1_500)?.state, "open");
    assert.deepEqual(store.list("d1", { now: 1_500 }).map((r) => r.id), [q.id]);
    assert.equal(store.get(q.id, 2_000)?.state, "expired");
    assert.equal(
      store.settle(q.id, "answered", { a: 1 }),
      false,
      "an expired question stays expired",
    );
    assert.deepEqual(store.list("d1", { now: 3_000 }), []);
    assert.equal(store.list("d1", { all: true, now: 3_000 }).length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("QuestionStore.settle() moves an open question once, with its answer", async () => {
  const dir = await Deno.makeTempDir();
  try {
    using store = new QuestionStore(`${dir}/questions.db`);
    const q = row({ deadline: Number.MAX_SAFE_INTEGER });
    store.add(q);
    assert.equal(store.settle(q.id, "answered", { repo: "me/x" }, 5), true);
    assert.equal(store.settle(q.id, "declined", undefined, 6), false);
    const got = store.get(q.id)!;
    assert.deepEqual([got.state, got.answer, got.settled], ["answered", { repo: "me/x" }, 5]);
    assert.match(newQuestionId(), /^elc-[0-9a-f]{8}$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
