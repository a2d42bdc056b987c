/**
 * Whose a question is, at the daemon's question routes (decision 0059): a
 * question belongs to the caller whose call raised it; another caller neither
 * lists, shows, answers, declines nor resumes it, unless it names it with
 * `anySession`, and even then the call's result goes only to its own caller.
 * In process: the process's question desk opened on a store of the test's own,
 * an instance that asks through it as engine/client_handlers.ts does.
 */

import assert from "node:assert/strict";
import { callAnswering, QUESTION_HANDLERS, resumeCall } from "./daemon_questions.ts";
import { type Asker, PendingCall, questionDesk, type QuestionView } from "../engine/questions.ts";

const SCHEMA = { type: "object", properties: { name: { type: "string" } } };
const asker = (instanceId: string): Asker => ({ instanceId, server: "s", namespace: "s" });

/** Opens the process's desk on a store of its own for `body`, and closes it after. */
async function withDesk(body: () => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  questionDesk.open(`${dir}/questions.db`, "d1", { timeoutMs: 60_000 });
  try {
    await body();
  } finally {
    questionDesk.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A call on instance `instanceId` by `owner` whose server asks one question
 * once `asks` resolves, and answers with what it got: the `call` route's part.
 * With `tied`, the connection says the question is the call's (it came on the
 * call's own response stream, engine/question_tie.ts).
 */
function askingCall(
  owner: string,
  instanceId: string,
  asks: Promise<void> = Promise.resolve(),
  tied = false,
) {
  const signal = new AbortController().signal;
  return callAnswering("s.ask", owner, signal, (_signal, pending) => {
    const off = questionDesk.during(instanceId, pending!);
    return (async () => {
      try {
        await asks;
        const who = tied ? { ...asker(instanceId), call: pending } : asker(instanceId);
        const got = await questionDesk.ask(who, "elicitation", {
          message: `which name for ${owner}?`,
          requestedSchema: SCHEMA,
        });
        return { content: [{ type: "text", text: JSON.stringify(got) }] };
      } finally {
        off();
      }
    })();
  });
}

const list = async (caller: Record<string, unknown>) =>
  (await QUESTION_HANDLERS.questions(caller as never, new AbortController().signal)).map((q) =>
    q.id
  );
const NOT_YOURS = { code: "question-not-yours" };
const never = new AbortController().signal;

Deno.test("questions routes: another session's question is neither seen nor answered unless named", async () => {
  await withDesk(async () => {
    const first = await askingCall("alice", "i1") as { question: QuestionView };
    const id = first.question.id;
    assert.deepEqual(first.question.owners, ["alice"]);

    assert.deepEqual(await list({ session: "alice" }), [id]);
    assert.deepEqual(await list({ session: "bob" }), [], "bob lists only his own");
    assert.deepEqual(await list({}), [], "a caller of no session is not alice");
    await assert.rejects(QUESTION_HANDLERS.questionGet({ id, session: "bob" }, never), NOT_YOURS);
    await assert.rejects(
      QUESTION_HANDLERS.questionAnswer({ id, session: "bob", decline: true }, never),
      NOT_YOURS,
    );
    await assert.rejects(
      QUESTION_HANDLERS.questionAnswer({ id, session: "bob", answer: { name: "Bob" } }, never),
      NOT_YOURS,
    );
    // Alice's call's result goes to alice alone: bob cannot attach to it.
    await assert.rejects(resumeCall(id, { owner: "bob" }, never), NOT_YOURS);
    await assert.rejects(
      QUESTION_HANDLERS.questionAnswer(
        { id, session: "bob", anySession: true, answer: { name: "Bob" }, wait: true },
        never,
      ),
      NOT_YOURS,
    );
    assert.equal(questionDesk.show(id, { owner: "alice" }).state, "open", "nothing was answered");

    // Named deliberately, bob sees and answers it; he is told only that it was answered.
    assert.deepEqual(await list({ session: "bob", anySession: true }), [id]);
    const answered = await QUESTION_HANDLERS.questionAnswer(
      { id, session: "bob", anySession: true, answer: { name: "Bob" } },
      never,
    );
    assert.deepEqual(Object.keys(answered as object), ["question"]);
    assert.equal((answered as { question: QuestionView }).question.state, "answered");
    // Alice collects her call's result, built from bob's answer.
    const result = await resumeCall(id, { owner: "alice" }, never, "s.ask");
    assert.match(JSON.stringify(result), /accept.*Bob/);
  });
});

Deno.test("questions routes: a question the wire cannot tie to one call is offered to the sessions with calls there", async () => {
  await withDesk(async () => {
    let ask!: () => void;
    const asks = new Promise<void>((resolve) => ask = resolve);
    // Two calls in flight on one instance, one asks: the wire does not say which.
    const alice = askingCall("alice", "i1", asks);
    const bob = new PendingCall("s.other", "bob");
    const off = questionDesk.during("i1", bob);
    const carol = new PendingCall("s.other", "carol");
    const offCarol = questionDesk.during("i2", carol); // another instance: not offered
    try {
      ask();
      let open: string[] = [];
      for (let i = 0; i < 100 && !open.length; i++) {
        open = await list({ session: "alice" });
        if (!open.length) await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(open.length, 1);
      const [id] = open;
      assert.deepEqual(await list({ session: "bob" }), [id]);
      assert.deepEqual(await list({ session: "carol" }), []);
      await assert.rejects(
        QUESTION_HANDLERS.questionAnswer({ id, session: "carol", decline: true }, never),
        NOT_YOURS,
      );
      await QUESTION_HANDLERS.questionAnswer({ id, session: "bob", answer: { name: "B" } }, never);
      // The asking call was never told (it could not be tied), and it ends with its own result.
      assert.match(JSON.stringify(await alice), /accept.*name.*B/);
    } finally {
      off();
      offCarol();
    }
  });
});

Deno.test("questions routes: a serve client's own key is its caller, apart from its session", async () => {
  await withDesk(async () => {
    const first = await askingCall("serve-a", "i1") as { question: QuestionView };
    const id = first.question.id;
    assert.deepEqual(await list({ owner: "serve-a" }), [id]);
    assert.deepEqual(await list({ owner: "serve-b" }), []);
    assert.deepEqual(await list({}), [], "not the callers that named no session");
    await QUESTION_HANDLERS.questionAnswer({ id, owner: "serve-a", decline: true }, never);
    assert.match(
      JSON.stringify(await resumeCall(id, { owner: "serve-a" }, never)),
      /decline/,
    );
  });
});

Deno.test("questions routes: a question the wire cannot tie wakes the one free call and is offered to every caller there", async () => {
  await withDesk(async () => {
    // Alice's call is waiting on its own question; bob's call is in flight on the same instance.
    const alice = askingCall("alice", "i1");
    let first: string[] = [];
    for (let i = 0; i < 100 && !first.length; i++) {
      first = await list({ session: "alice" });
      if (!first.length) await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(first.length, 1);
    const bob = new PendingCall("s.other", "bob");
    const off = questionDesk.during("i1", bob);
    try {
      // The server asks again (it may be alice's call asking twice): the wire does not say whose.
      const second = questionDesk.ask(asker("i1"), "elicitation", {
        message: "and which colour?",
        requestedSchema: SCHEMA,
      });
      let aliceSees: string[] = [];
      for (let i = 0; i < 100 && aliceSees.length < 2; i++) {
        aliceSees = await list({ session: "alice" });
        if (aliceSees.length < 2) await new Promise((r) => setTimeout(r, 10));
      }
      // Bob's call, the one not waiting on a question of its own, is told (its caller does not
      // hang); the guess may be wrong, so alice, whose call is in flight there too, sees it too.
      const [id] = aliceSees.filter((q) => !first.includes(q));
      assert.ok(id, "alice sees the second question");
      assert.deepEqual(await list({ session: "bob" }), [id]);
      assert.deepEqual(bob.open.map((q) => q.id), [id]);
      await QUESTION_HANDLERS.questionAnswer({ id, session: "alice", decline: true }, never);
      assert.equal((await second).action, "decline");
      // Alice's own call was told its own question, and only that one.
      assert.match(JSON.stringify(await alice), new RegExp(`"id":"${first[0]}"`));
      await QUESTION_HANDLERS.questionAnswer(
        { id: first[0], session: "alice", decline: true },
        never,
      );
    } finally {
      off();
    }
  });
});

Deno.test("questions routes: a question the connection ties to its call is that call's alone, whatever else is in flight", async () => {
  await withDesk(async () => {
    let ask!: () => void;
    const asks = new Promise<void>((resolve) => ask = resolve);
    // Both calls in flight on one instance before either asks, each on its own stream.
    const alice = askingCall("alice", "i1", asks, true);
    const bob = askingCall("bob", "i1", asks, true);
    ask();
    const [a, b] = await Promise.all([alice, bob]) as { question: QuestionView }[];
    assert.equal(a.question.message, "which name for alice?");
    assert.deepEqual(a.question.owners, ["alice"]);
    assert.equal(b.question.message, "which name for bob?");
    assert.deepEqual(b.question.owners, ["bob"]);
    assert.deepEqual(await list({ session: "alice" }), [a.question.id]);
    assert.deepEqual(await list({ session: "bob" }), [b.question.id]);
    const answered = await QUESTION_HANDLERS.questionAnswer(
      { id: a.question.id, session: "alice", answer: { name: "Alice" }, wait: true },
      never,
    );
    assert.match(JSON.stringify(answered), /accept.*Alice/);
    await assert.rejects(
      QUESTION_HANDLERS.questionAnswer(
        { id: b.question.id, session: "alice", decline: true },
        never,
      ),
      NOT_YOURS,
    );
    await QUESTION_HANDLERS.questionAnswer(
      { id: b.question.id, session: "bob", decline: true },
      never,
    );
  });
});

Deno.test("questions routes: a question the wire cannot tie is told to its call once the other calls in flight leave", async () => {
  await withDesk(async () => {
    let ask!: () => void;
    const asks = new Promise<void>((resolve) => ask = resolve);
    const bob = new PendingCall("s.other", "bob");
    const off = questionDesk.during("i1", bob);
    const alice = askingCall("alice", "i1", asks);
    ask();
    let open: string[] = [];
    for (let i = 0; i < 100 && !open.length; i++) {
      open = await list({ session: "alice" });
      if (!open.length) await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(open.length, 1);
    assert.deepEqual(bob.open, [], "bob's call is not told a question that may not be his");
    // Bob's call ends: only alice's call can have asked it.
    off();
    const told = await alice as { question: QuestionView };
    assert.equal(told.question.id, open[0]);
    assert.equal(told.question.call, "s.ask");
    assert.equal(
      questionDesk.show(open[0], { owner: "alice" }).call,
      "s.ask",
      "the store learnt it",
    );
    await QUESTION_HANDLERS.questionAnswer({ id: open[0], session: "alice", decline: true }, never);
  });
});

Deno.test("the question desk publishes question.raised and question.answered on the daemon's bus", async () => {
  const { EventBus } = await import("../engine/event_bus.ts");
  const bus = new EventBus({ epoch: "e" });
  questionDesk.events = bus;
  try {
    await withDesk(async () => {
      const first = await askingCall("alice", "i9") as { question: QuestionView };
      const id = first.question.id;
      await QUESTION_HANDLERS.questionAnswer(
        { id, session: "alice", answer: { name: "A" } },
        never,
      );
      const reader = bus.reader({ seq: 0 });
      const told = [reader.poll(), reader.poll(), reader.poll()];
      assert.deepEqual(told.map((e) => e && [e.kind, e.server, e.session, e.data.id]), [
        ["question.raised", "s", "alice", id],
        ["question.answered", "s", "alice", id],
        undefined,
      ]);
      assert.equal(told[1]!.data.state, "answered");
    });
  } finally {
    questionDesk.events = undefined;
  }
});

Deno.test("questions routes: an answer that comes as its question expires gets the call's outcome, not an error", async () => {
  const dir = await Deno.makeTempDir();
  questionDesk.open(`${dir}/questions.db`, "d1", { timeoutMs: 50 });
  try {
    const first = await askingCall("alice", "i1") as { question: QuestionView };
    const id = first.question.id;
    // The desk answers cancel at its timeout; the call goes on with that.
    const deadline = Date.now() + 10_000;
    while (questionDesk.show(id, { owner: "alice" } as never).state === "open") {
      assert.ok(Date.now() < deadline, "the question never expired");
      await new Promise((r) => setTimeout(r, 10));
    }
    const late = await QUESTION_HANDLERS.questionAnswer(
      { owner: "alice", id, answer: { name: "x" }, wait: true } as never,
      never,
    ) as { content: { text: string }[] };
    assert.match(late.content[0].text, /cancel/, JSON.stringify(late));
  } finally {
    questionDesk.close();
    await Deno.remove(dir, { recursive: true });
  }
});
