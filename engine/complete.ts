/**
 * Argument completion (MCP 2025-11-25 "Completion"; issue 12): the values a
 * server suggests for one argument of a prompt (`ref/prompt`) or one
 * variable of a resource template (`ref/resource`), asked with
 * `completion/complete` through an instance leased as a tool call leases one
 * (engine/server_request.ts).
 *
 * A server that does not declare `completions`, or answers method-not-found
 * (-32601), offers none: `offered: false` with no values, not an error, so a
 * caller completing as someone types shows nothing rather than failing.
 *
 * @module
 */

import { ServerError } from "../core/errors.ts";
import type { CallerContext } from "./scope_key.ts";
import { type RequestSource, serverRequest } from "./server_request.ts";
import { messageOf } from "./error_text.ts";

const METHOD_NOT_FOUND = -32601;

/** What is completed: a prompt by name, or a resource template by its URI template. */
export type CompletionRef = { type: "ref/prompt"; name: string } | {
  type: "ref/resource";
  uri: string;
};

/** The values a server suggested (MCP `CompleteResult.completion`), and whether it offers any. */
export interface Completion {
  /** False when the server offers no completion (no `completions` capability, or -32601). */
  offered: boolean;
  /** At most 100 values, as the server sent them. */
  values: string[];
  /** How many values there are in all, when the server said. */
  total?: number;
  /** Whether there are more than `values`, when the server said. */
  hasMore?: boolean;
}

function methodNotFound(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === METHOD_NOT_FOUND) return true;
  }
  return false;
}

/**
 * Asks `namespace` to complete `argument` of `ref`.
 *
 * @param argument The argument's (or template variable's) name and the prefix typed so far.
 * @param context Values of the other arguments already given (MCP `context.arguments`),
 *   which a server may use to narrow the values.
 * @returns The server's suggestions; `offered: false` when it has no completion.
 * @throws {ServerError} when the server fails the request (other than
 *   method-not-found) or answers something that is not a `CompleteResult`;
 *   what {@link serverRequest} throws.
 */
export function complete(
  source: RequestSource,
  namespace: string,
  ref: CompletionRef,
  argument: { name: string; value: string },
  context: Record<string, string>,
  ctx: CallerContext,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Completion> {
  const target = ref.type === "ref/prompt" ? ref.name : ref.uri;
  return serverRequest(
    source,
    namespace,
    ctx,
    { method: "completion/complete", target },
    async (instance, run) => {
      if (!instance.client.getServerCapabilities()?.completions) {
        return { offered: false, values: [] };
      }
      let answer: unknown;
      try {
        answer = await instance.request("completion/complete", {
          ref,
          argument,
          ...(Object.keys(context).length ? { context: { arguments: context } } : {}),
        }, run);
      } catch (error) {
        if (methodNotFound(error)) return { offered: false, values: [] };
        throw error;
      }
      const completion = (answer as { completion?: Record<string, unknown> } | null)?.completion;
      const values = completion?.values;
      if (!Array.isArray(values) || !values.every((v) => typeof v === "string")) {
        throw new ServerError(
          instance.spec.name,
          `server "${instance.spec.name}": completion/complete: the answer has no ` +
            `completion.values list of strings: ${messageOf(JSON.stringify(answer)).slice(0, 200)}`,
        );
      }
      return {
        offered: true,
        values,
        ...(typeof completion!.total === "number" ? { total: completion!.total } : {}),
        ...(typeof completion!.hasMore === "boolean" ? { hasMore: completion!.hasMore } : {}),
      };
    },
    options,
  );
}
