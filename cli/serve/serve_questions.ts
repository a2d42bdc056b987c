/**
 * A server's question met by an `mcpx serve` tool call, asked of serve's own
 * client the way a 2025-era client is asked (MCP 2025-11-25, "Elicitation",
 * "Sampling"): `elicitation/create` or `sampling/createMessage` on the
 * request's own stream, its answer handed to the daemon's question store
 * (`questionAnswer`, decision 0040), and the call followed to its next
 * question or its result. The client's user answers an elicitation, so a
 * question routed to a person may be answered this way. {@link askOf} and
 * {@link taskAskOf} say how one request's client, or one task's, is asked.
 *
 * @module
 */

import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { QuestionView } from "../../engine/question_view.ts";
import type { CliContext } from "../context.ts";
import { questionOf } from "../call/question.ts";
import { RELATED_TASK, type ServeTaskStore } from "./serve_tasks.ts";

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

/**
 * How a request's client is asked a server's question: over a 2025-era
 * connection whose client declared elicitation (or sampling), as a request
 * of its own on the call's stream. A 2026-07-28 request has no such channel
 * (its answer would be `input_required`, not done yet): no `ask`.
 */
export function askOf(server: McpServer, ctx: ServerContext): { ask?: AskClient } {
  if (ctx.mcpReq.envelope !== undefined) return {};
  const declared = server.server.getClientCapabilities();
  if (!declared?.elicitation && !declared?.sampling) return {};
  return {
    ask: async (question) => {
      if (question.kind === "sampling") {
        if (!declared.sampling) return "decline";
        return await ctx.mcpReq.requestSampling(question.request as never) as never;
      }
      if (!declared.elicitation) return "decline";
      const result = await ctx.mcpReq.elicitInput(question.request as never);
      return result.action === "accept" ? result.content ?? {} : "decline";
    },
  };
}

/**
 * How a task's call asks its 2025-era client (MCP 2025-11-25, "Input Required
 * Status"): the task shows `input_required` until the client waits on
 * `tasks/result`, and the question goes out on that request, tied to the
 * task in `_meta`. No `ask` when the client declared neither capability.
 */
export function taskAskOf(
  server: McpServer,
  tasks: ServeTaskStore,
  taskId: string,
): { ask?: AskClient } {
  const declared = server.server.getClientCapabilities();
  if (!declared?.elicitation && !declared?.sampling) return {};
  return {
    ask: (question) =>
      tasks.ask(taskId, async (channel) => {
        const request = question.request as Record<string, unknown>;
        const meta = (request._meta ?? {}) as Record<string, unknown>;
        const tied = {
          ...question,
          request: { ...request, _meta: { ...meta, [RELATED_TASK]: { taskId } } },
        };
        const { ask } = askOf(server, channel as ServerContext);
        return ask ? await ask(tied) : "decline";
      }),
  };
}
