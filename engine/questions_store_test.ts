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
  owners: ["alice"],
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

Deno.test("QuestionStore.attribute() names the call of an open question, and of no settled one (decision 0075)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    using store = new QuestionStore(`${dir}/questions.db`);
    const open = row({ deadline: Number.MAX_SAFE_INTEGER });
    const settled = row({ deadline: Number.MAX_SAFE_INTEGER });
    store.add(open);
    store.add(settled);
    store.settle(settled.id, "declined");
    store.attribute(open.id, "s.ask");
    store.attribute(settled.id, "s.ask");
    assert.equal(store.get(open.id)?.call, "s.ask");
    assert.equal(store.get(settled.id)?.call, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("QuestionStore.list() with an owner keeps only that caller's questions (decision 0059)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    using store = new QuestionStore(`${dir}/questions.db`);
    const alice = row({ owners: ["alice"], created: 1_000 });
    const shared = row({ owners: ["alice", "bob"], created: 1_100 });
    const none = row({ owners: [""], created: 1_200 });
    for (const q of [alice, shared, none]) store.add(q);
    const ids = (owner?: string) =>
      store.list("d1", { now: 1_500, ...(owner !== undefined ? { owner } : {}) }).map((r) => r.id);
    assert.deepEqual(ids("alice"), [shared.id, alice.id]);
    assert.deepEqual(ids("bob"), [shared.id]);
    assert.deepEqual(ids(""), [none.id]);
    assert.deepEqual(ids("carol"), []);
    assert.deepEqual(ids(), [none.id, shared.id, alice.id]);
    assert.deepEqual(store.get(shared.id, 1_500)?.owners, ["alice", "bob"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("QuestionStore opens a store written before owners: its rows belong to nobody", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { DatabaseSync } = await import("node:sqlite");
    const old = new DatabaseSync(`${dir}/questions.db`);
    old.exec(`CREATE TABLE questions (id TEXT PRIMARY KEY, kind TEXT NOT NULL, daemon TEXT NOT NULL,
      server TEXT NOT NULL, namespace TEXT NOT NULL, call TEXT, mode TEXT, message TEXT NOT NULL,
      request TEXT NOT NULL, route TEXT NOT NULL, reason TEXT NOT NULL, created INTEGER NOT NULL,
      deadline INTEGER NOT NULL, state TEXT NOT NULL, answer TEXT, settled INTEGER)`);
    old.exec(`INSERT INTO questions VALUES ('elc-00000001', 'elicitation', 'd1', 's', 's', NULL,
      'form', 'm', '{}', 'agent', 'r', 1000, 2000, 'open', NULL, NULL)`);
    old.close();
    using store = new QuestionStore(`${dir}/questions.db`);
    assert.deepEqual(store.get("elc-00000001", 1_500)?.owners, []);
    assert.deepEqual(store.list("d1", { now: 1_500, owner: "" }), []);
    store.add(row());
    assert.equal(store.list("d1", { now: 1_500, owner: "alice" }).length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("QuestionStore damaged while open (overwritten under the daemon): moved aside, and the next statement works on a new store", async () => {
  const dir = await Deno.makeTempDir();
  try {
    using store = new QuestionStore(`${dir}/questions.db`);
    store.add(row());
    // Overwritten in place, as `head -c 5000 /dev/urandom > questions.db` does.
    Deno.writeFileSync(
      `${dir}/questions.db`,
      new TextEncoder().encode("not a database any more\n".repeat(300)),
    );
    // Before: every later statement failed with "file is not a database" until the daemon restarted.
    assert.deepEqual(store.list("d1", { now: 1_500 }), []);
    const q = row();
    store.add(q);
    assert.deepEqual(store.list("d1", { now: 1_500 }).map((r) => r.id), [q.id]);
    const aside = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
      n.startsWith("questions.db.damaged-")
    );
    assert.equal(aside.length, 1, "the damaged bytes are kept aside");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
