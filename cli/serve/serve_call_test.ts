/**
 * What `mcpx serve` answers when a server asks a question during a call
 * (decisions 0040, 0050, 0059): the question itself, as the call's answer or
 * as `input_required`, never a failure; and whose it is travels with it. In
 * process: the `call` command replaced by a handler that answers a question
 * the way cli/call/call.ts does.
 */

import assert from "node:assert/strict";
import { runServeTool } from "./serve_call.ts";
import { serveTools } from "./serve_tools.ts";
import { question } from "../../ops/outcome.ts";
import { memoryIo } from "../../core/io.ts";
import { viewOf } from "../../engine/question_view.ts";
import type { CommandModule } from "../commands.ts";
import type { InputRound } from "./serve_input.ts";

const now = Date.now();
const QUESTION = viewOf({
  id: "elc-0000abcd",
  kind: "elicitation",
  daemon: "d1",
  server: "s",
  namespace: "s",
  call: "s.ask",
  owners: ["s1"],
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

/** A `call` command whose server asks {@link QUESTION}; what its context sent as the owner. */
function asking(
  seen: { owner?: string; session?: string }[],
): (name: string) => Promise<CommandModule> {
  return (name) => {
    assert.equal(name, "call");
    return Promise.resolve({
      handle: (ctx) => {
        seen.push({ owner: ctx.owner, session: ctx.session });
        return Promise.resolve(question({ question: QUESTION }));
      },
    });
  };
}

const base = () => ({
  io: memoryIo(),
  env: { HOME: "/nonexistent" },
  cwd: "/",
  flags: {},
});
const callTool = serveTools().find((t) => t.op.name === "call")!;
const ARGS = { target: "s.ask", arguments: {} };

Deno.test("runServeTool() answers a call's question with the question, not a failure", async () => {
  const seen: { owner?: string; session?: string }[] = [];
  const signal = new AbortController().signal;
  const r = await runServeTool(base(), callTool, ARGS, { session: "s1", signal }, asking(seen));
  const question = (r.structuredContent as { question?: { id: string; kind: string } })
    ?.question;
  assert.equal(question?.id, QUESTION.id, JSON.stringify(r));
  assert.equal(question?.kind, "elicitation");
  assert.equal(JSON.parse(r.content[0].text!).question.id, QUESTION.id);
  assert.doesNotMatch(r.content[0].text!, /"ok":\s*false/);
  // A session's call is that session's: no key of its own.
  assert.deepEqual(seen, [{ owner: undefined, session: "s1" }]);
});

Deno.test("runServeTool() puts a 2026-07-28 client's question as input_required, sealed with whose it is", async () => {
  const seen: { owner?: string; session?: string }[] = [];
  const asked: { id: string; owner?: string }[] = [];
  const input: InputRound = {
    canAsk: () => true,
    ask: (q, owner) => {
      asked.push({ id: q.id, owner });
      return Promise.resolve({ resultType: "input_required", inputRequests: {} });
    },
  };
  const signal = new AbortController().signal;
  const r = await runServeTool(base(), callTool, ARGS, { signal, input }, asking(seen));
  assert.equal((r as Record<string, unknown>).resultType, "input_required", JSON.stringify(r));
  assert.equal(asked.length, 1);
  assert.equal(asked[0].id, QUESTION.id);
  // A request that named no session is a caller of its own, and its retry answers as it.
  assert.match(asked[0].owner ?? "", /^serve-/);
  assert.deepEqual(seen, [{ owner: asked[0].owner, session: undefined }]);
});

Deno.test("mcpx_call answers with the server's result as sent: its items, structuredContent and isError, notes after (decision 0076)", async () => {
  const { failed, ok } = await import("../../ops/outcome.ts");
  const tool = serveTools().find((t) => t.name === "mcpx_call")!;
  const image = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };
  const answered = (outcome: ReturnType<typeof ok>, stderr = "") =>
    runServeTool(
      { io: memoryIo(), env: {}, cwd: "/", flags: {} },
      tool,
      { target: "s.t", arguments: {} },
      { signal: new AbortController().signal },
      () =>
        Promise.resolve({
          handle: (ctx: { io: { err(t: string): void } }) => {
            if (stderr) ctx.io.err(stderr);
            return Promise.resolve(outcome);
          },
        } as unknown as CommandModule),
    );
  const result = {
    content: [{ type: "text", text: "Echo: hi" }, image],
    structuredContent: { n: 1 },
  };
  assert.deepEqual(await answered(ok(result, ["a note"])), {
    content: [{ type: "text", text: "Echo: hi" }, image, { type: "text", text: "note: a note" }],
    structuredContent: { n: 1 },
  });
  const bad = { content: [{ type: "text", text: "no such file" }], isError: true };
  assert.deepEqual(await answered(failed(bad)), { ...bad, isError: true });
  // Not a tool's result (a task's handle): answered as every op's value is, as JSON text.
  const handle = { task: { taskId: "t1", status: "working" }, content: [] };
  const r = await answered(ok(handle));
  assert.deepEqual(r.structuredContent, handle);
  assert.equal(JSON.parse(r.content[0].text!).task.taskId, "t1");
});
