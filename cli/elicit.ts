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
import { DaemonUnavailableError, McpxError, NotFoundError, UsageError } from "../core/errors.ts";
import { logsDir } from "../logs/writer.ts";
import { daemonFiles } from "../wire/locate.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { VERSION } from "../core/version.ts";
import { viewOf } from "../engine/question_view.ts";
import type { InputOf } from "../ops/op.ts";
import type { elicit } from "../ops/question_ops.ts";
import type { QuestionView } from "../engine/question_view.ts";
import type { QuestionStore as QuestionStoreLike } from "../engine/questions_store.ts";
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
  // With an endpoint set, the questions are that daemon's: asked through its routes, never this
  // machine's store (which holds only local daemons' questions).
  if (await ctx.endpoint()) return await remote(ctx, input, action);
  // Questions are found by id in the store, whichever configuration's daemon holds them
  // (a direct target's included), so no configuration file is needed here.
  const { QuestionStore, questionsPath } = await import("../engine/questions_store.ts");
  const logs = logsDir(ctx.paths().stateDir, String(await ctx.setting("logging.dir") ?? ""));
  const path = questionsPath(logs);
  const stored = await Deno.stat(path).then(() => true, () => false);
  if (action === "list" || action === "ls") {
    const rows = stored
      ? readStore(new QuestionStore(path), (s) => s.list(undefined, { all: input.all === true }))
      : [];
    const views = rows.map(viewOf);
    if (await ctx.json()) printJson(ctx.io, { questions: views });
    else if (!views.length) ctx.io.out(`no ${input.all ? "" : "open "}questions\n`);
    else {
      ctx.io.out(renderTable(
        ["ID", "KIND", "NAMESPACE", "FOR", "STATE", "MESSAGE"],
        views.map((r) => [r.id, r.kind, r.namespace, r.route, r.state, truncate(r.message, 50)]),
      ));
    }
    return 0;
  }
  const id = input.id;
  if (!id) throw new UsageError(`name the question: \`mcpx elicit ${action} <id>\``);
  const row = stored ? readStore(new QuestionStore(path), (s) => s.get(id)) : undefined;
  if (!row) {
    throw new NotFoundError(`no question "${id}": \`mcpx elicit list\` shows the open ones`, []);
  }
  if (action === "show") {
    const q = viewOf(row);
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
  // The daemon that holds the server's request, by its configuration's fingerprint.
  const socket = daemonFiles(ctx.paths().stateDir, row.daemon).socket;
  const reply = await requestDaemon<unknown>(socket, "questionAnswer", {
    id,
    ...(action === "decline" ? { decline: true } : { answer }),
    ...(Deno.stdin.isTerminal() ? { tty: true } : {}),
    ...(input.wait ? { wait: true } : {}),
  }, { version: VERSION }).catch((error) => {
    if (error instanceof DaemonUnavailableError) {
      throw new McpxError(
        "question-settled",
        `question ${id} was asked of a daemon that is no longer running, so its call is gone; ` +
          "run the call again",
      );
    }
    throw error;
  });
  if (!input.wait) {
    const q = (reply as { question: QuestionView }).question;
    if (await ctx.json()) printJson(ctx.io, q);
    else ctx.io.out(`question ${id}: ${q.state}\n`);
    return 0;
  }
  const call = row.call ?? "";
  const dot = call.indexOf(".");
  return await followQuestions(
    ctx,
    reply,
    (r) => printResult(ctx, input, r as CallResult, call.slice(0, dot), call.slice(dot + 1)),
    socket,
  );
}

/** `mcpx elicit` against the daemon `daemon.endpoint` names, through its question routes. */
async function remote(
  ctx: CliContext,
  input: InputOf<typeof elicit>,
  action: string,
): Promise<number> {
  if (action === "list" || action === "ls") {
    const views = await ctx.request<QuestionView[]>("questions", { all: input.all === true });
    if (await ctx.json()) printJson(ctx.io, { questions: views });
    else if (!views.length) ctx.io.out(`no ${input.all ? "" : "open "}questions\n`);
    else {
      ctx.io.out(renderTable(
        ["ID", "KIND", "NAMESPACE", "FOR", "STATE", "MESSAGE"],
        views.map((r) => [r.id, r.kind, r.namespace, r.route, r.state, truncate(r.message, 50)]),
      ));
    }
    return 0;
  }
  const id = input.id;
  if (!id) throw new UsageError(`name the question: \`mcpx elicit ${action} <id>\``);
  const q = await ctx.request<QuestionView>("questionGet", { id });
  if (action === "show") {
    if (await ctx.json()) printJson(ctx.io, q);
    else ctx.io.out(`${questionText(q)}  state: ${q.state}\n`);
    return 0;
  }
  if (action === "decline" && input.words.length) {
    throw new UsageError("`mcpx elicit decline <id>` takes no answer");
  }
  const reply = await ctx.request<unknown>("questionAnswer", {
    id,
    ...(action === "decline" ? { decline: true } : { answer: parseAnswerWords(input.words) }),
    ...(Deno.stdin.isTerminal() ? { tty: true } : {}),
    ...(input.wait ? { wait: true } : {}),
  });
  if (!input.wait) {
    const settled = (reply as { question: QuestionView }).question;
    if (await ctx.json()) printJson(ctx.io, settled);
    else ctx.io.out(`question ${id}: ${settled.state}\n`);
    return 0;
  }
  const call = q.call ?? "";
  const dot = call.indexOf(".");
  return await followQuestions(
    ctx,
    reply,
    (r) => printResult(ctx, input, r as CallResult, call.slice(0, dot), call.slice(dot + 1)),
  );
}

function readStore<T>(store: QuestionStoreLike, read: (s: QuestionStoreLike) => T): T {
  try {
    return read(store);
  } finally {
    store.close();
  }
}
