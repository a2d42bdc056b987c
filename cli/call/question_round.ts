/**
 * A stored question put to an MCP client as an `input_required` result, and
 * the client's response read back (MCP 2026-07-28, SEP-2322): what `mcpx
 * serve` (cli/serve/serve_input.ts) and `mcpx serve --passthrough`
 * (cli/serve/passthrough_input.ts) both do with a question the daemon holds
 * (decision 0040), each under a key of its own.
 *
 * @module
 */

import {
  type CreateMessageResult,
  inputRequired,
  inputResponse,
  type InputResponseView,
} from "@modelcontextprotocol/server";

/** What of a stored question the client is shown. */
export interface AskedQuestion {
  id: string;
  kind: "elicitation" | "sampling";
  mode?: "form" | "url";
  /** The request as the server sent it (elicitation or sampling params). */
  request: Record<string, unknown>;
}

/** What the daemon's `questionAnswer` takes for a client's response: the answer, or a decline. */
export type AnswerFields = { answer: Record<string, unknown> } | { decline: true };

/**
 * The `input_required` result that asks the client `question`: one input
 * request under `key`, and a `requestState` naming the question, sealed by
 * `mint` (the process's HMAC codec) so only this process can take it back.
 */
export async function askQuestion(
  question: AskedQuestion,
  key: string,
  mint: (state: { question: string }) => Promise<string>,
): Promise<Record<string, unknown>> {
  const request = question.kind === "sampling"
    ? inputRequired.createMessage(question.request as never)
    : question.mode === "url"
    ? inputRequired.elicitUrl(question.request as never)
    : inputRequired.elicit(question.request as never);
  return inputRequired({
    inputRequests: { [key]: request },
    requestState: await mint({ question: question.id }),
  }) as unknown as Record<string, unknown>;
}

/**
 * The client's response to the question asked under `key`: the response under
 * that key or, from a client that keeps its own keys, its only response.
 */
export function responseTo(
  responses: Record<string, unknown> | undefined,
  key: string,
): InputResponseView {
  const keys = Object.keys(responses ?? {});
  const chosen = keys.includes(key) || keys.length !== 1 ? key : keys[0];
  return inputResponse(responses ?? {}, chosen);
}

/**
 * The daemon's answer fields for a response: accepted content, a sampling
 * result, or a decline for anything else (declined, cancelled, missing, or
 * an answer of another kind).
 */
export function answerFields(response: InputResponseView): AnswerFields {
  if (response.kind === "elicit") {
    return response.action === "accept" ? { answer: response.content ?? {} } : { decline: true };
  }
  if (response.kind === "sampling") {
    const r = response.result as CreateMessageResult;
    return { answer: { role: r.role, content: r.content, model: r.model } };
  }
  return { decline: true };
}
