/**
 * The handlers of the question routes (ops/question_routes.ts), and the part
 * of the `call` route that hands a question back to its caller while the call
 * goes on in the daemon (engine/questions.ts; decision 0040).
 *
 * @module
 */

import { NotFoundError, UsageError } from "../core/errors.ts";
import {
  type CallWait,
  ownerKey,
  PendingCall,
  type QuestionCaller,
  questionDesk,
  type QuestionView,
} from "../engine/questions.ts";
import type { RequestCaller } from "../wire/caller.ts";
import type { InputOf, OutputOf } from "./op.ts";
import type { QUESTION_ROUTES } from "./question_routes.ts";

type Routes = typeof QUESTION_ROUTES;
type Handler<K extends keyof Routes> = (
  input: InputOf<Routes[K]>,
  signal: AbortSignal,
) => Promise<OutputOf<Routes[K]>>;

/** What a call answers while its server waits on a question: the question, and how to go on. */
export interface QuestionAnswer {
  question: QuestionView;
}

/**
 * Who a request is, for the questions (decision 0059): its caller key, and
 * whether it names another session's question deliberately.
 */
export function questionCaller(
  p: RequestCaller & { anySession?: boolean },
): QuestionCaller {
  return { owner: ownerKey(p), ...(p.anySession === true ? { anySession: true } : {}) };
}

/** The answer of a wait: the call's result as it is, or its question. */
function answerOf(wait: CallWait): unknown {
  return wait.kind === "result" ? wait.value : { question: wait.question } satisfies QuestionAnswer;
}

/**
 * Runs a tool call so that a question its server asks ends the caller's
 * request with `{ question }` while the call goes on (the caller's abort
 * cancels the call only until then); with the desk closed, just runs it.
 *
 * @param label `namespace.tool`.
 * @param owner The caller key of whoever makes the call: its questions are theirs.
 * @param start Starts the call with the signal and pending call to use.
 */
export async function callAnswering(
  label: string,
  owner: string,
  signal: AbortSignal,
  start: (signal: AbortSignal, pending?: PendingCall) => Promise<unknown>,
): Promise<unknown> {
  if (!questionDesk.isOpen) return await start(signal);
  const pending = new PendingCall(label, owner);
  const own = new AbortController();
  const cancel = () => own.abort(signal.reason);
  signal.addEventListener("abort", cancel, { once: true });
  try {
    pending.run(start(own.signal, pending)).catch(() => {});
    return answerOf(await pending.wait(new Set(), signal));
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

/**
 * Attaches to the call question `id` was asked in (`mcpx call --resume`):
 * its question while still open, its next one, or its result; only for the
 * call's own caller (decision 0059).
 * @throws {NotFoundError} when this daemon runs no call for that question;
 *   {McpxError} `question-not-yours` when the call is another caller's.
 */
export async function resumeCall(
  id: string,
  caller: QuestionCaller,
  signal: AbortSignal,
  target?: string,
): Promise<unknown> {
  const call = callFor(id, caller);
  if (target !== undefined && call.label !== target) {
    throw new UsageError(
      `question ${id} was asked during ${call.label}, not ${target}; resume it as ` +
        `\`mcpx call ${call.label} --resume ${id}\``,
    );
  }
  return answerOf(await call.wait(new Set(), signal));
}

function callFor(id: string, caller: QuestionCaller): PendingCall {
  const call = questionDesk.callOf(id, caller);
  if (!call) {
    questionDesk.show(id, caller); // an unknown id, or another caller's, says so
    throw new NotFoundError(
      `the call question ${id} was asked in is not running in this daemon (it ended, or the ` +
        "daemon restarted); run the call again",
      [],
    );
  }
  return call;
}

/** The question routes' handlers, by route name. */
export const QUESTION_HANDLERS: { [K in Exclude<keyof Routes, "relay">]: Handler<K> } = {
  // deno-lint-ignore require-await
  questions: async (p) => questionDesk.list(p.all === true, questionCaller(p)),
  // deno-lint-ignore require-await
  questionGet: async (p) => questionDesk.show(p.id, questionCaller(p)),
  questionAnswer: async (p, signal) => {
    const caller = questionCaller(p);
    // The call's result goes only to its own caller: refused before anything is answered.
    const waited = p.wait ? questionDesk.callOf(p.id, caller) : undefined;
    if (waited && questionDesk.show(p.id, caller).state !== "open") {
      // It settled (expired: its server was told cancel) as the answer came: the call goes on,
      // and what its caller waits for is its outcome, not an error for an answer it cannot give.
      return answerOf(await waited.wait(new Set([p.id]), signal));
    }
    const call = p.decline
      ? questionDesk.decline(p.id, caller)
      : questionDesk.answer(p.id, p.answer ?? {}, p.tty === true, caller);
    if (!p.wait) return { question: questionDesk.show(p.id, caller) };
    if (!call) throw new NotFoundError(`question ${p.id} belongs to no running call`, []);
    return answerOf(await call.wait(new Set([p.id]), signal));
  },
};
