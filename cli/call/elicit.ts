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

import type { CliContext } from "../context.ts";
import { renderTable, truncate } from "../table.ts";
import { DaemonUnavailableError, McpxError, NotFoundError, UsageError } from "../../core/errors.ts";
import { logsDir } from "../../logs/writer.ts";
import { daemonFiles } from "../../wire/locate.ts";
import { requestDaemon } from "../../wire/daemon_request.ts";
import { VERSION } from "../../core/version.ts";
import { viewOf } from "../../engine/question_view.ts";
import { checkOwner, ownerKey, type QuestionCaller } from "../../engine/question_owner.ts";
import { callerBody } from "../../wire/caller.ts";
import type { InputOf } from "../../ops/op.ts";
import type { elicit } from "../../ops/question_ops.ts";
import type { QuestionView } from "../../engine/question_view.ts";
import type { QuestionStore as QuestionStoreLike } from "../../engine/questions_store.ts";
import { parseAnswerWords } from "../../engine/question_form.ts";
import { questionOf, questionText } from "./question.ts";
import * as callCommand from "./call.ts";
import type { CallResult } from "./render_result.ts";
import type { Text, TextView } from "../commands.ts";
import { type Answered, ok, type Outcome, question } from "../../ops/outcome.ts";

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

/** What `mcpx elicit list` answers. */
export interface QuestionList {
  questions: QuestionView[];
}

/**
 * Runs `mcpx elicit`: lists, shows, answers or declines the caller's
 * session's questions.
 *
 * @returns `ok` with `{ questions }` (list), the question (show), the settled
 *   question (answer, decline); with `--wait`, the call's result as `mcpx
 *   call` answers it (cli/call/call.ts `resumed`: `failed` when `isError`), or
 *   `question` with `{ question }` when its server asked another; that
 *   outcome's extra names the daemon holding the call and the call's name.
 * @throws {UsageError} For an unknown action, a missing id, or a bad answer.
 * @throws {NotFoundError} For an unknown question id.
 */
export async function handle(ctx: CliContext, input: InputOf<typeof elicit>): Promise<Outcome> {
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
    return ok<QuestionList>({ questions: await source.list(input.all === true) });
  }
  const id = input.id;
  if (!id) throw new UsageError(`name the question: \`mcpx elicit ${action} <id>\``);
  const q = await source.get(id);
  if (action === "show") {
    const { daemon: _, ...view } = q;
    return ok<Omit<QuestionView, "daemon">>(view);
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
  if (!input.wait) return ok<QuestionView>((reply as { question: QuestionView }).question);
  // The call's answer: rendered as `mcpx call` renders it, named as the call was.
  const socket = source.socketOf(q);
  const extra: CallExtra = {
    ...(socket !== undefined ? { socket } : {}),
    ...(q.call !== undefined ? { name: q.call } : {}),
  };
  return { ...resumed(reply) as Answered, extra };
}

/** What a `--wait` outcome carries for the terminal: where the call waits, and its name. */
interface CallExtra {
  /** The daemon holding the call (cli/outcome_render.ts answers its next question there). */
  socket?: string;
  /** The call's `<namespace>.<tool>`, which a tool's error names. */
  name?: string;
}

/**
 * What the daemon answered once a question was answered inline: the call's
 * result (`failed` when `isError`), or another question; as `mcpx call`.
 */
export function resumed(answer: unknown): Outcome {
  const asked = questionOf(answer);
  return asked ? question({ question: asked }) : callCommand.resumed(answer);
}

/**
 * The terminal's rendering: a table of questions (`no open questions` when
 * none), one question with its state, `question <id>: <state>` once answered
 * or declined, or with `--wait` the call's result as `mcpx call` prints it.
 */
export function text(value: unknown, view: TextView): Text {
  const input = view.input as InputOf<typeof elicit>;
  const action = input.action ?? "list";
  if (action === "list" || action === "ls") {
    return listText((value as QuestionList).questions, input);
  }
  if (action === "show") {
    const q = value as QuestionView;
    return `${questionText(q)}  state: ${q.state}\n`;
  }
  if (!input.wait) return `question ${input.id}: ${(value as QuestionView).state}\n`;
  const name = (view.extra as CallExtra | undefined)?.name;
  return callCommand.text(value as CallResult, {
    ...view,
    input: { target: name },
    extra: name !== undefined ? { name } : undefined,
  });
}

function listText(views: QuestionView[], input: InputOf<typeof elicit>): string {
  if (!views.length) return `no ${input.all ? "" : "open "}questions\n`;
  // Another session's questions say whose they are.
  const anySession = input.anySession === true;
  const whose = (r: QuestionView) =>
    anySession ? [(r.owners ?? []).map((o) => o || "(none)").join(",") || "-"] : [];
  return renderTable(
    [
      "ID",
      "KIND",
      "NAMESPACE",
      "FOR",
      ...(anySession ? ["SESSION"] : []),
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
  );
}

/**
 * This machine's store: a question is found by id whichever configuration's
 * daemon holds it (a direct target's included), so no configuration file is
 * needed, and answered through that daemon, by its configuration's fingerprint.
 */
async function storeSource(ctx: CliContext, caller: QuestionCaller): Promise<QuestionSource> {
  const { QuestionStore, questionsPath } = await import("../../engine/questions_store.ts");
  const logs = logsDir(ctx.paths().stateDir, String(await ctx.setting("logging.dir") ?? ""));
  const path = questionsPath(logs);
  const stored = await Deno.stat(path).then(() => true, () => false);
  const socketOf = (q: { daemon?: string }) =>
    daemonFiles(ctx.paths().stateDir, q.daemon ?? "", (name) => ctx.env[name]).socket;
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
