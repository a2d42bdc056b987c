/**
 * `mcpx elicit [list] | show <id> | answer <id> [key=value… | json] [--wait] |
 * decline <id>`: the questions servers asked during calls (decision 0040).
 * An answer is checked against the requested schema by the daemon, defaults
 * filled; a question routed to a person is answered only from a terminal.
 * `--wait` prints what the call answers once resumed, as `mcpx call` would
 * (exit 75 again if the server asks another question).
 *
 * A question belongs to the session whose call raised it (decision 0059):
 * every action sees only the caller's session's questions (`--session`, else
 * `MCPX_SESSION_ID`, else those of callers that named none) unless
 * `--any-session` names another session's; answering one of those prints
 * only that it was answered, since the call's result goes to its own caller.
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
import { checkOwner, ownerKey, type QuestionCaller } from "../engine/question_owner.ts";
import { callerBody } from "../wire/caller.ts";
import type { InputOf } from "../ops/op.ts";
import type { elicit } from "../ops/question_ops.ts";
import type { QuestionView } from "../engine/question_view.ts";
import type { QuestionStore as QuestionStoreLike } from "../engine/questions_store.ts";
import { parseAnswerWords } from "../engine/question_form.ts";
import { followQuestions, questionText } from "./question.ts";
import * as callCommand from "./call.ts";
import { renderOutcome } from "./outcome_render.ts";

const ACTIONS = ["list", "ls", "show", "answer", "decline"] as const;

/**
 * Where the questions are: this machine's store, answered through the daemon
 * each row names, or, with `daemon.endpoint` set, that daemon's question
 * routes (this machine's store holds only local daemons' questions).
 */
interface QuestionSource {
  list(all: boolean): Promise<QuestionView[]>;
  /** @throws {NotFoundError} for an unknown id. */
  get(id: string): Promise<QuestionView & { daemon?: string }>;
  /** Sends `questionAnswer` to the daemon holding question `q`; what it answers. */
  answer(q: { id: string; daemon?: string }, body: Record<string, unknown>): Promise<unknown>;
  /** The local socket of the daemon holding `q`, for the answers that follow; none for an endpoint. */
  socketOf(q: { daemon?: string }): string | undefined;
}

export async function run(ctx: CliContext, input: InputOf<typeof elicit>): Promise<number> {
  const action = input.action ?? "list";
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(
      `unknown elicit action "${action}"; use one of list, show, answer, decline: ` +
        "`mcpx elicit answer <id> key=value`",
    );
  }
  const caller: QuestionCaller = {
    owner: ownerKey({ owner: ctx.owner, session: ctx.session }),
    ...(input.anySession ? { anySession: true } : {}),
  };
  const source = await ctx.endpoint()
    ? endpointSource(ctx, caller)
    : await storeSource(ctx, caller);
  if (action === "list" || action === "ls") {
    const views = await source.list(input.all === true);
    if (await ctx.json()) printJson(ctx.io, { questions: views });
    else if (!views.length) ctx.io.out(`no ${input.all ? "" : "open "}questions\n`);
    else {
      // Another session's questions say whose they are.
      const whose = (r: QuestionView) =>
        caller.anySession ? [(r.owners ?? []).map((o) => o || "(none)").join(",") || "-"] : [];
      ctx.io.out(renderTable(
        [
          "ID",
          "KIND",
          "NAMESPACE",
          "FOR",
          ...(caller.anySession ? ["SESSION"] : []),
          "STATE",
          "MESSAGE",
        ],
        views.map((r) => [
          r.id,
          r.kind,
          r.namespace,
          r.route,
          ...whose(r),
          r.state,
          truncate(r.message, 50),
        ]),
      ));
    }
    return 0;
  }
  const id = input.id;
  if (!id) throw new UsageError(`name the question: \`mcpx elicit ${action} <id>\``);
  const q = await source.get(id);
  if (action === "show") {
    const { daemon: _, ...view } = q;
    if (await ctx.json()) printJson(ctx.io, view);
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
  const reply = await source.answer(q, {
    id,
    ...(caller.anySession ? { anySession: true } : {}),
    ...(action === "decline" ? { decline: true } : { answer }),
    ...(Deno.stdin.isTerminal() ? { tty: true } : {}),
    ...(input.wait ? { wait: true } : {}),
  });
  if (!input.wait) {
    const settled = (reply as { question: QuestionView }).question;
    if (await ctx.json()) printJson(ctx.io, settled);
    else ctx.io.out(`question ${id}: ${settled.state}\n`);
    return 0;
  }
  const json = await ctx.json();
  return await followQuestions(
    ctx,
    reply,
    // The call's result, rendered as `mcpx call` renders it.
    (r) => renderOutcome(ctx, callCommand, callCommand.resumed(r), { target: q.call }, json),
    source.socketOf(q),
  );
}

/**
 * This machine's store: a question is found by id whichever configuration's
 * daemon holds it (a direct target's included), so no configuration file is
 * needed, and answered through that daemon, by its configuration's fingerprint.
 */
async function storeSource(ctx: CliContext, caller: QuestionCaller): Promise<QuestionSource> {
  const { QuestionStore, questionsPath } = await import("../engine/questions_store.ts");
  const logs = logsDir(ctx.paths().stateDir, String(await ctx.setting("logging.dir") ?? ""));
  const path = questionsPath(logs);
  const stored = await Deno.stat(path).then(() => true, () => false);
  const socketOf = (q: { daemon?: string }) =>
    daemonFiles(ctx.paths().stateDir, q.daemon ?? "").socket;
  return {
    list: (all) =>
      Promise.resolve(
        stored
          ? readStore(
            new QuestionStore(path),
            (s) =>
              s.list(undefined, { all, ...(caller.anySession ? {} : { owner: caller.owner }) }),
          ).map(viewOf)
          : [],
      ),
    get: (id) => {
      const row = stored ? readStore(new QuestionStore(path), (s) => s.get(id)) : undefined;
      if (!row) {
        throw new NotFoundError(
          `no question "${id}": \`mcpx elicit list\` shows the open ones`,
          [],
        );
      }
      checkOwner(row, caller);
      return Promise.resolve({ ...viewOf(row), daemon: row.daemon });
    },
    answer: (q, body) =>
      // The daemon holds the rule too: it is told who answers (decision 0059).
      requestDaemon<unknown>(
        socketOf(q),
        "questionAnswer",
        { ...callerBody({ session: ctx.session, owner: ctx.owner }), ...body },
        { version: VERSION },
      ).catch(
        (error) => {
          if (error instanceof DaemonUnavailableError) {
            throw new McpxError(
              "question-settled",
              `question ${q.id} was asked of a daemon that is no longer running, so its call is ` +
                "gone; run the call again",
            );
          }
          throw error;
        },
      ),
    socketOf,
  };
}

/** The daemon `daemon.endpoint` names, through its question routes. */
function endpointSource(ctx: CliContext, caller: QuestionCaller): QuestionSource {
  const any = caller.anySession ? { anySession: true } : {};
  return {
    list: (all) => ctx.request<QuestionView[]>("questions", { all, ...any }),
    get: (id) => ctx.request<QuestionView>("questionGet", { id, ...any }),
    answer: (_q, body) => ctx.request<unknown>("questionAnswer", body),
    socketOf: () => undefined,
  };
}

function readStore<T>(store: QuestionStoreLike, read: (s: QuestionStoreLike) => T): T {
  try {
    return read(store);
  } finally {
    store.close();
  }
}
