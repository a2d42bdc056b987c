/**
 * A server's question met by an `mcpx serve` tool call, asked of serve's own
 * client the way a 2025-era client is asked (MCP 2025-11-25, "Elicitation",
 * "Sampling"): `elicitation/create` or `sampling/createMessage` on the
 * request's own stream, its answer handed to the daemon's question store
 * (`questionAnswer`, decision 0040), and the call followed to its next
 * question or its result. The client's user answers an elicitation, so a
 * question routed to a person may be answered this way.
 *
 * @module
 */

import type { QuestionView } from "../../engine/question_view.ts";
import type { CliContext } from "../context.ts";
import { questionOf } from "../call/question.ts";

/**
 * Asks serve's client one question: the answer (form fields, `{}` for a URL
 * flow, a sampling result) or `decline`. Absent when the client cannot be
 * asked (a 2026-07-28 request, or a client that declared neither capability).
 */
export type AskClient = (question: QuestionView) => Promise<Record<string, unknown> | "decline">;

/**
 * Follows a call through its questions, each asked of the client, until it
 * answers something that is not a question.
 *
 * @param first What the call answered: `{ question }`.
 * @returns The call's result (or a question `ask` cannot put: answered as is).
 * @throws what asking the client or the daemon throws (the call stays open
 *   in the daemon until its question expires).
 */
export async function followWithClient(
  ctx: CliContext,
  first: unknown,
  ask: AskClient,
): Promise<unknown> {
  let answer = first;
  for (let q = questionOf(answer); q; q = questionOf(answer)) {
    const reply = await ask(q);
    answer = await ctx.request(
      "questionAnswer",
      reply === "decline"
        ? { id: q.id, decline: true, wait: true }
        : { id: q.id, answer: reply, tty: true, wait: true },
    );
  }
  return answer;
}
