/**
 * `mcpx elicit` shows and acts on the caller's session's questions only
 * (decision 0059): another session's need `--any-session`. In process, over
 * a store of the test's own (no daemon: nothing here reaches one).
 */

import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../../core/io.ts";
import { newQuestionId, questionsPath, QuestionStore } from "../../engine/questions_store.ts";
import { logsDir } from "../../logs/writer.ts";
import * as elicitCommand from "./elicit.ts";
import { viewOf } from "../../engine/question_view.ts";
import { questionText } from "./question.ts";
import { question } from "../../ops/outcome.ts";
import { runHandler } from "../outcome_render.ts";
import type { CliContext } from "../context.ts";

async function elicit(home: string, argv: string[], session?: string) {
  const io = memoryIo();
  const code = await main(["elicit", ...argv], io, {
    HOME: home,
    MCPX_STATE_DIR: `${home}/s`,
    MCPX_CACHE_DIR: `${home}/c`,
    ...(session ? { MCPX_SESSION_ID: session } : {}),
  }, home);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

Deno.test("mcpx elicit lists and shows only the caller's session's questions unless --any-session", async () => {
  const home = await Deno.makeTempDir();
  try {
    const logs = logsDir(`${home}/s`);
    await Deno.mkdir(logs, { recursive: true, mode: 0o700 });
    const now = Date.now();
    const ask = (owners: string[]) => ({
      id: newQuestionId(),
      kind: "elicitation" as const,
      daemon: "d1",
      server: "s",
      namespace: "s",
      call: "s.ask",
      owners,
      mode: "form" as const,
      message: "which branch?",
      request: { message: "which branch?", requestedSchema: { type: "object", properties: {} } },
      route: "agent" as const,
      reason: "r",
      created: now,
      deadline: now + 60_000,
      state: "open" as const,
    });
    const alices = ask(["alice"]);
    const nobodys = ask([""]);
    {
      using store = new QuestionStore(questionsPath(logs));
      store.add(alices);
      store.add(nobodys);
    }
    const ids = async (argv: string[], session?: string) => {
      const r = await elicit(home, ["list", "--json", ...argv], session);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout).questions as { id: string }[]).map((q) => q.id).sort();
    };
    assert.deepEqual(await ids([], "bob"), []);
    assert.deepEqual(await ids([], "alice"), [alices.id]);
    assert.deepEqual(await ids([]), [nobodys.id]);
    assert.deepEqual(await ids(["--any-session"], "bob"), [alices.id, nobodys.id].sort());

    const table = await elicit(home, ["list", "--any-session"], "bob");
    assert.match(table.stdout, /SESSION/);
    assert.match(table.stdout, new RegExp(`${alices.id} .* alice `));
    assert.doesNotMatch((await elicit(home, ["list"], "alice")).stdout, /SESSION/);

    for (const action of ["show", "decline", "answer"]) {
      const refused = await elicit(home, [action, alices.id], "bob");
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /belongs to another session's call/);
      assert.match(refused.stderr, new RegExp(`mcpx elicit answer ${alices.id} --any-session`));
    }
    const shown = await elicit(home, ["show", alices.id, "--any-session", "--json"], "bob");
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual(JSON.parse(shown.stdout).owners, ["alice"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

const now = Date.now();
const QUESTION = viewOf({
  id: "elc-0000abcd",
  kind: "elicitation",
  daemon: "d1",
  server: "s",
  namespace: "s",
  call: "s.ask",
  owners: [""],
  mode: "form",
  message: "which branch?",
  request: {
    message: "which branch?",
    requestedSchema: { type: "object", properties: { branch: { type: "string" } } },
  },
  route: "agent",
  reason: "the agent made the call",
  created: now,
  deadline: now + 60_000,
  state: "open",
});

const view = (input: Record<string, unknown>, extra?: unknown) => ({
  input: { words: [], ...input },
  columns: 120,
  kind: "ok" as const,
  ...(extra !== undefined ? { extra } : {}),
});

Deno.test("elicit text: the list, one question, an answer's state", () => {
  assert.equal(elicitCommand.text({ questions: [] }, view({})), "no open questions\n");
  assert.equal(elicitCommand.text({ questions: [] }, view({ all: true })), "no questions\n");
  assert.match(
    elicitCommand.text({ questions: [QUESTION] }, view({ action: "list" })) as string,
    /^ID +KIND +NAMESPACE +FOR +STATE +MESSAGE\nelc-0000abcd +elicitation +s +agent +open +which branch\?\n$/,
  );
  assert.equal(
    elicitCommand.text(QUESTION, view({ action: "show", id: QUESTION.id })),
    `${questionText(QUESTION)}  state: open\n`,
  );
  assert.equal(
    elicitCommand.text({ ...QUESTION, state: "answered" }, view({ action: "answer", id: "q1" })),
    "question q1: answered\n",
  );
});

Deno.test("elicit text of --wait is the call's result as mcpx call prints it, named as the call", () => {
  const wait = view({ action: "answer", id: "q1", wait: true }, { name: "s.ask" });
  assert.equal(
    elicitCommand.text({ content: [{ type: "text", text: "main" }] }, wait),
    "main\n",
  );
  assert.deepEqual(
    elicitCommand.text(
      { content: [{ type: "text", text: "no such branch" }], isError: true },
      wait,
    ),
    { err: "s.ask returned an error:\nno such branch\n" },
  );
});

Deno.test("elicit resumed() is the call's outcome: failed for isError, a question for another", () => {
  assert.equal(elicitCommand.resumed({ content: [], isError: true }).kind, "failed");
  assert.deepEqual(elicitCommand.resumed({ question: QUESTION }), {
    kind: "question",
    value: { question: QUESTION },
  });
});

Deno.test("a question nobody at the terminal answers is printed by the renderer: its document, or its text on stderr (exit 75)", async (t) => {
  const module = { handle: () => Promise.resolve(question({ question: QUESTION })) };
  for (const json of [true, false]) {
    await t.step(json ? "--json" : "text", async () => {
      const io = memoryIo();
      const ctx = { io, env: { MCPX_INPUT: "report" } } as unknown as CliContext;
      assert.equal(await runHandler(ctx, module, {}, json), 75);
      if (json) {
        assert.equal(io.stdout, JSON.stringify({ question: QUESTION }, null, 2) + "\n");
        assert.equal(io.stderr, "");
      } else {
        assert.equal(io.stdout, "");
        assert.equal(io.stderr, questionText(QUESTION));
      }
    });
  }
});
