/**
 * `mcpx elicit [list] | show <id> | answer <id> [key=value… | json] [--wait] |
 * decline <id>`: the questions servers asked during calls (decision 0040).
 * An answer is checked against the requested schema by the daemon, defaults
 * filled; a question routed to a person is answered only from a terminal.
 * `--wait` prints what the call answers once resumed, as `mcpx call` would
 * (exit 75 again if the server asks another question).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";
import { printJson } from "./json_out.ts";
import { McpxError, UsageError } from "../core/errors.ts";
import { noConfigMessage } from "../config/discover.ts";
import type { InputOf } from "../ops/op.ts";
import type { elicit } from "../ops/question_ops.ts";
import type { QuestionView } from "../engine/questions.ts";
import { parseAnswerWords } from "../engine/question_form.ts";
import { followQuestions, questionText } from "./question.ts";
import type { CallResult } from "./render_result.ts";
import { printResult } from "./call.ts";

const ACTIONS = ["list", "ls", "show", "answer", "decline"] as const;

export async function run(ctx: CliContext, input: InputOf<typeof elicit>): Promise<number> {
  const action = input.action ?? "list";
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(
      `unknown elicit action "${action}"; use one of list, show, answer, decline: ` +
        "`mcpx elicit answer <id> key=value`",
    );
  }
  const config = await ctx.config();
  if (config.path === null) {
    throw new McpxError("no-config", noConfigMessage(config.searched ?? [], ctx.cwd));
  }
  if (action === "list" || action === "ls") {
    const rows = await ctx.request<QuestionView[]>("questions", input.all ? { all: true } : {});
    if (await ctx.json()) printJson(ctx.io, { questions: rows });
    else if (!rows.length) ctx.io.out("no open questions\n");
    else {
      ctx.io.out(renderTable(
        ["ID", "KIND", "NAMESPACE", "FOR", "STATE", "MESSAGE"],
        rows.map((r) => [r.id, r.kind, r.namespace, r.route, r.state, truncate(r.message, 50)]),
      ));
    }
    return 0;
  }
  const id = input.id;
  if (!id) throw new UsageError(`name the question: \`mcpx elicit ${action} <id>\``);
  if (action === "show") {
    const q = await ctx.request<QuestionView>("questionGet", { id });
    if (await ctx.json()) printJson(ctx.io, q);
    else ctx.io.out(`${questionText(q)}  state: ${q.state}\n`);
    return 0;
  }
  let answer: Record<string, unknown> | undefined;
  if (action === "answer") {
    try {
      answer = parseAnswerWords(input.words);
    } catch (error) {
      throw new UsageError(`${(error as Error).message} (question ${id})`);
    }
  } else if (input.words.length) {
    throw new UsageError("`mcpx elicit decline <id>` takes no answer");
  }
  const tty = Deno.stdin.isTerminal();
  // The call's name, for the result's wording.
  const call = input.wait
    ? (await ctx.request<QuestionView>("questionGet", { id })).call ?? ""
    : "";
  const reply = await ctx.request<unknown>("questionAnswer", {
    id,
    ...(action === "decline" ? { decline: true } : { answer }),
    ...(tty ? { tty: true } : {}),
    ...(input.wait ? { wait: true } : {}),
  });
  if (!input.wait) {
    const q = (reply as { question: QuestionView }).question;
    if (await ctx.json()) printJson(ctx.io, q);
    else ctx.io.out(`question ${id}: ${q.state}\n`);
    return 0;
  }
  const dot = call.indexOf(".");
  return await followQuestions(
    ctx,
    reply,
    (r) => printResult(ctx, input, r as CallResult, call.slice(0, dot), call.slice(dot + 1)),
  );
}
