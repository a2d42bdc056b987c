/**
 * A server's question met by `mcpx_call`, put to a 2026-07-28 serve client
 * as that era asks (MCP 2026-07-28, multi-round-trip requests): the call
 * answers `input_required` with the question as its one input request and a
 * sealed `requestState` naming the question in the daemon's store (decision
 * 0040); the client answers and sends the call again with `inputResponses`
 * and the state, and serve hands the answer to the store and follows the
 * upstream call to its next question or its result (decision 0050).
 *
 * The state is sealed with the SDK's HMAC codec under a key made when serve
 * starts, so a client can only name questions serve put to it; it lives
 * `elicit.timeout` at most, as the question does.
 *
 * @module
 */

import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { QuestionView } from "../../engine/question_view.ts";
import {
  type AnswerFields,
  answerFields,
  askQuestion,
  responseTo,
} from "../call/question_round.ts";

/** The key the one input request goes under in `inputRequests`. */
export const QUESTION_KEY = "question";

/** Seals and opens the `requestState` of serve's questions. */
export type QuestionSeal = ReturnType<typeof createRequestStateCodec<SealedQuestion>>;

/**
 * What a sealed `requestState` holds: the question, and whose it is when the
 * request named no session (decision 0059), so the client's retry, a request
 * of its own, answers as the caller whose call raised it.
 */
export interface SealedQuestion {
  question: string;
  owner?: string;
}

/**
 * A seal for one serve process: a random 32-byte key, states valid for `ttlMs`.
 *
 * @param ttlMs How long a question may wait for its answer (`elicit.timeout`), ms.
 */
export function questionSeal(ttlMs: number): QuestionSeal {
  return createRequestStateCodec<SealedQuestion>({
    key: crypto.getRandomValues(new Uint8Array(32)),
    ttlSeconds: Math.max(1, Math.ceil(ttlMs / 1000)),
  });
}

export type { AnswerFields } from "../call/question_round.ts";

/** How a 2026-07-28 tool call takes part in a question's round trip. */
export interface InputRound {
  /**
   * This call is the client's retry: the question it answers, the answer, and
   * whose the question is when the first request named no session.
   */
  resume?: { id: string; fields: AnswerFields; owner?: string };
  /** Whether the client declared what the question needs (elicitation, or sampling). */
  canAsk(question: QuestionView): boolean;
  /**
   * The `input_required` result that puts `question` to the client; `owner`,
   * when the caller named no session, is sealed with it for the retry.
   */
  ask(question: QuestionView, owner?: string): Promise<Record<string, unknown>>;
}

/**
 * The round of a 2026-07-28 request, or undefined for a 2025-era one.
 *
 * @param seal The process's seal; `sctx.mcpReq.requestState()` already holds
 *   what it opened (the server's `requestState.verify` is `seal.verify`).
 */
export async function inputRound(
  sctx: ServerContext,
  seal: QuestionSeal,
): Promise<InputRound | undefined> {
  if (sctx.mcpReq.envelope === undefined) return undefined;
  const envelope = sctx.mcpReq.envelope as Record<string, unknown>;
  const declared = (envelope[CLIENT_CAPABILITIES_META_KEY] ?? {}) as {
    elicitation?: { form?: unknown; url?: unknown };
    sampling?: unknown;
  };
  const state = await sctx.mcpReq.requestState<SealedQuestion>();
  const resume = state?.question
    ? {
      id: state.question,
      fields: answerFields(responseTo(sctx.mcpReq.inputResponses, QUESTION_KEY)),
      ...(typeof state.owner === "string" ? { owner: state.owner } : {}),
    }
    : undefined;
  return {
    ...(resume ? { resume } : {}),
    canAsk: (q) =>
      q.kind === "sampling"
        ? declared.sampling !== undefined
        : declared.elicitation !== undefined &&
          // A client that names its modes must name the one asked; naming none means form.
          (q.mode === "url"
            ? declared.elicitation.url !== undefined
            : declared.elicitation.url === undefined || declared.elicitation.form !== undefined),
    ask: (q, owner) =>
      askQuestion(q, QUESTION_KEY, (state) => seal.mint({ ...state, ...(owner ? { owner } : {}) })),
  };
}
