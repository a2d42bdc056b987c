/**
 * Questions a server asks during a call, against the real server-everything
 * over stdio (issue 13; decision 0040): its elicitation and sampling trigger
 * tools make `mcpx call` exit 75 with the question and the command that
 * answers it; another process answers with `mcpx elicit answer <id> --wait`
 * and gets the call's result, which the server built from that answer; a
 * question left past its deadline (`elicit.timeout`) is answered `cancel`;
 * another session's question is neither listed, answered nor collected
 * unless named with `--any-session`, and its result goes only to its caller
 * (decision 0059).
 * One world and one warm daemon per test.
 */

import assert from "node:assert/strict";
import { stdioServer, world } from "./_helpers.ts";

interface Question {
  id: string;
  kind: string;
  route: string;
  state: string;
  command: string;
  schema: string[];
}

const idOf = (stderr: string): string => {
  const m = stderr.match(/question (elc-[0-9a-f]{8})/);
  assert.ok(m, stderr);
  return m[1];
};

Deno.test("a server's questions are answered from another process, and expire as cancel", async (t) => {
  await using w = await world();
  w.env.MCPX_ELICIT_TIMEOUT = "60s";
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });

  await t.step("an elicitation exits 75 and `elicit answer --wait` resumes the call", async () => {
    const r = await w.mcpx(["call", "everything.trigger_elicitation_request", "{}"]);
    assert.equal(r.code, 75, r.stderr);
    const id = idOf(r.stderr);
    assert.match(r.stderr, /for you: the agent made the call/);
    assert.match(r.stderr, new RegExp(`mcpx elicit answer ${id} name=…`));
    assert.match(r.stderr, /integer: integer \[1\.\.100\] = 42/);
    const { questions } = await w.json<{ questions: Question[] }>(["elicit", "list"]);
    assert.deepEqual(questions.map((q) => [q.id, q.state, q.route]), [[id, "open", "agent"]]);

    const bad = await w.mcpx(["elicit", "answer", id, "integer=500"]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /field "integer" takes a number in 1\.\.100, got 500/);

    const a = await w.mcpx(["elicit", "answer", id, "name=Ada Lovelace", "check=true", "--wait"]);
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stdout, /Ada Lovelace/);
    // The schema's defaults filled what the answer left out (SEP-1034).
    assert.match(a.stdout, /It was a dark and stormy night\./);
    const shown = await w.json<Question>(["elicit", "show", id]);
    assert.equal(shown.state, "answered");
  });

  await t.step("a sampling request is answered with text and the call gets it", async () => {
    const r = await w.mcpx([
      "call",
      "everything.trigger_sampling_request",
      '{"prompt":"say hi","maxTokens":20}',
    ]);
    assert.equal(r.code, 75, r.stderr);
    const id = idOf(r.stderr);
    assert.match(r.stderr, /\(sampling, for you/);
    const a = await w.mcpx(["elicit", "answer", id, "text=hello from the agent", "--wait"]);
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stdout, /hello from the agent/);
  });

  await t.step(
    "a script's call throws QuestionError carrying the question and its command",
    async () => {
      const r = await w.mcpx([
        "exec",
        "try { await everything.trigger_elicitation_request({}) } catch (e) { " +
        "console.log(e.name, e.code, e.question.id, e.command.startsWith(`mcpx elicit answer ${e.question.id}`)) }",
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^QuestionError input-required elc-[0-9a-f]{8} true$/m);
      const id = r.stdout.match(/elc-[0-9a-f]{8}/)![0];
      assert.equal((await w.mcpx(["elicit", "decline", id])).code, 0);
    },
  );

  await t.step("a script's onElicit answers its own questions and the call returns", async () => {
    const r = await w.mcpx([
      "exec",
      "const seen = [];\n" +
      "const onElicit = (q) => { seen.push(`${q.kind}:${q.route}`); " +
      "return q.kind === 'sampling' ? { text: 'sampled by the script' } : { name: 'Grace Hopper', check: true }; };\n" +
      "const asked = await everything.trigger_elicitation_request({}, { onElicit });\n" +
      "const sampled = await everything.trigger_sampling_request({ prompt: 'hi', maxTokens: 5 }, { onElicit });\n" +
      "const declined = await everything.trigger_elicitation_request({}, { onElicit: () => 'decline' });\n" +
      "let unanswered;\n" +
      "try { await everything.trigger_elicitation_request({}, { onElicit: () => undefined }) } " +
      "catch (e) { unanswered = e; }\n" +
      "console.log(JSON.stringify({ seen, asked: JSON.stringify(asked.raw), sampled: JSON.stringify(sampled.raw), " +
      "declined: JSON.stringify(declined.raw), unanswered: [unanswered?.name, unanswered?.question?.id] }))",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assert.deepEqual(out.seen, ["elicitation:agent", "sampling:agent"]);
    assert.match(out.asked, /Grace Hopper/);
    assert.match(out.asked, /It was a dark and stormy night\./); // defaults filled (SEP-1034)
    assert.match(out.sampled, /sampled by the script/);
    assert.match(out.declined, /decline/i);
    assert.equal(out.unanswered[0], "QuestionError");
    assert.equal((await w.mcpx(["elicit", "decline", out.unanswered[1]])).code, 0);
  });

  await t.step(
    "another session neither sees, answers nor collects it, unless it names it",
    async () => {
      const alice = { env: { MCPX_SESSION_ID: "alice" } };
      const bob = { env: { MCPX_SESSION_ID: "bob" } };
      const r = await w.mcpx(["call", "everything.trigger_elicitation_request", "{}"], alice);
      assert.equal(r.code, 75, r.stderr);
      const id = idOf(r.stderr);
      const listed = (who: { env: Record<string, string> }, ...flags: string[]) =>
        w.json<{ questions: Question[] }>(["elicit", "list", ...flags], who)
          .then((l) => l.questions.map((q) => q.id));
      assert.deepEqual(await listed(bob), []);
      assert.deepEqual(await listed(alice), [id]);
      assert.deepEqual(await listed(bob, "--any-session"), [id]);
      const refused = await w.mcpx(["elicit", "decline", id], bob);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /belongs to another session's call/);
      // Named, bob may answer, but the call's result goes only to alice.
      const waited = await w.mcpx(
        ["elicit", "answer", id, "name=Bob", "--any-session", "--wait"],
        bob,
      );
      assert.equal(waited.code, 1, waited.stderr);
      assert.match(waited.stderr, /result goes only to the caller that made it/);
      const answered = await w.mcpx(["elicit", "answer", id, "name=Bob", "--any-session"], bob);
      assert.equal(answered.code, 0, answered.stderr);
      assert.equal(answered.stdout, `question ${id}: answered\n`);
      const stolen = await w.mcpx([
        "call",
        "everything.trigger_elicitation_request",
        "--resume",
        id,
      ], bob);
      assert.equal(stolen.code, 1, stolen.stderr);
      assert.doesNotMatch(stolen.stdout, /Bob/);
      const done = await w.mcpx(
        ["call", "everything.trigger_elicitation_request", "--resume", id],
        alice,
      );
      assert.equal(done.code, 0, done.stderr);
      assert.match(done.stdout, /Bob/);
    },
  );

  await t.step("--resume attaches to the pending call without calling again", async () => {
    const r = await w.mcpx(["call", "everything.trigger_elicitation_request", "{}"]);
    assert.equal(r.code, 75, r.stderr);
    const id = idOf(r.stderr);
    const again = await w.mcpx([
      "call",
      "everything.trigger_elicitation_request",
      "--resume",
      id,
    ]);
    assert.equal(again.code, 75, again.stderr);
    assert.equal(idOf(again.stderr), id);
    // Another tool's call cannot collect it: its result would pass for that tool's.
    const other = await w.mcpx(["call", "everything.echo", "--resume", id]);
    assert.equal(other.code, 2, other.stderr);
    assert.match(other.stderr, /was asked during everything\.trigger_elicitation_request, not/);
    const d = await w.mcpx(["elicit", "decline", id]);
    assert.equal(d.code, 0, d.stderr);
    const done = await w.mcpx(["call", "everything.trigger_elicitation_request", "--resume", id]);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /decline/i);
  });
});

Deno.test("a question asked while two calls run on one instance ends neither call's wait, until only the asker runs", async () => {
  await using w = await world();
  w.env.MCPX_ELICIT_TIMEOUT = "60s";
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  assert.equal((await w.mcpx(["call", "everything.echo", '{"message":"warm"}'])).code, 0);
  const long = w.mcpx([
    "call",
    "everything.trigger_long_running_operation",
    '{"duration":4,"steps":2}',
  ]);
  await new Promise((r) => setTimeout(r, 1500));
  const asking = w.mcpx(["call", "everything.trigger_elicitation_request", "{}"]);
  // The long call ends with its own result, not with the question (the wire cannot say whose it is).
  const a = await long;
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /Long running operation completed/i);
  // Then only the asking call can have asked it: its wait ends with the question (decision 0075).
  const b = await asking;
  assert.equal(b.code, 75, b.stderr);
  const answered = await w.mcpx(["elicit", "answer", idOf(b.stderr), "name=Grace", "--wait"]);
  assert.equal(answered.code, 0, answered.stderr);
  assert.match(answered.stdout, /Grace/);
});

Deno.test("a question left past its deadline is answered cancel", async () => {
  await using w = await world();
  w.env.MCPX_ELICIT_TIMEOUT = "1s";
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  const r = await w.mcpx(["call", "everything.trigger_elicitation_request", "{}"]);
  assert.equal(r.code, 75, r.stderr);
  const id = idOf(r.stderr);
  // Read until the deadline has passed: the read that finds it so marks it expired.
  const until = Date.now() + 30_000;
  let shown = await w.json<Question>(["elicit", "show", id]);
  while (shown.state === "open" && Date.now() < until) {
    shown = await w.json<Question>(["elicit", "show", id]);
  }
  assert.equal(shown.state, "expired");
  // Its text no longer says the call waits for it.
  const text = await w.mcpx(["elicit", "show", id]);
  assert.match(text.stdout, /state: expired/);
  assert.doesNotMatch(text.stdout, /waits in the daemon/);
  // --resume collects the call, which the expiry let go on: the server heard cancel.
  const done = await w.mcpx(["call", "everything.trigger_elicitation_request", "--resume", id]);
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.stdout, /cancel/i);
  assert.doesNotMatch(done.stdout, /decline/i);
});
