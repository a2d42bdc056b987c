/**
 * The handler of the `relay` route (ops/question_routes.ts; decision 0049):
 * one `tools/call`, `prompts/get` or `resources/read` made for a client mcpx
 * serves (`mcpx serve --passthrough`), through the same engine paths as the
 * `call`, `promptGet` and `resourceRead` routes, with the client's answers,
 * `requestState` and capabilities sent on and the server's `input_required`
 * result answered as it is (engine/input_relay.ts).
 *
 * @module
 */

import { ProtocolError } from "@modelcontextprotocol/client";
import type { Daemon } from "../engine/engine.ts";
import { ServerError, UsageError } from "../core/errors.ts";
import type { InputRelay } from "../engine/input_relay.ts";
import { getPrompt, readResource } from "../engine/content.ts";
import { callNotify } from "./call_notify.ts";
import type { InputOf } from "./op.ts";
import type { Reply } from "./route_handler.ts";
import type { relay } from "./question_routes.ts";
import { callerOf } from "./caller_schema.ts";
import { contentOptions } from "./daemon_content.ts";
import { callAnswering } from "./daemon_questions.ts";
import { ownerKey } from "../engine/question_owner.ts";

/** The server's JSON-RPC error answer, as the `relay` route answers it (the client gets it as is). */
export interface UpstreamError {
  upstreamError: { code: number; message: string; data?: unknown };
}

/**
 * Sends the relayed request and answers what the server answered: its
 * result, its `input_required` result, its JSON-RPC error as
 * {@link UpstreamError} (a -32021 missing capability, a -32602 unknown tool
 * or resource: the client hears the server's code), or, when a 2025-era
 * server asked a question of its own during a tool call, `{ question }`
 * (decision 0040).
 *
 * @throws {UsageError} when `name` (tools/call, prompts/get) or `uri`
 *   (resources/read) is missing, or a prompt argument is not a string;
 *   what the `call`, `promptGet` and `resourceRead` routes throw.
 */
export async function relayRequest(
  d: Daemon,
  p: InputOf<typeof relay>,
  signal: AbortSignal,
  reply: Reply,
): Promise<unknown> {
  try {
    return await send(d, p, signal, reply);
  } catch (error) {
    const answered = error instanceof ServerError ? error.cause : undefined;
    if (!(answered instanceof ProtocolError)) throw error;
    return {
      upstreamError: {
        code: answered.code,
        message: answered.message,
        ...(answered.data !== undefined ? { data: answered.data } : {}),
      },
    } satisfies UpstreamError;
  }
}

function send(
  d: Daemon,
  p: InputOf<typeof relay>,
  signal: AbortSignal,
  reply: Reply,
): Promise<unknown> {
  const input: InputRelay = {
    ...(p.inputResponses ? { inputResponses: p.inputResponses } : {}),
    ...(p.requestState !== undefined ? { requestState: p.requestState } : {}),
    ...(p.clientCapabilities ? { clientCapabilities: p.clientCapabilities } : {}),
    ...(p.logLevel ? { logLevel: p.logLevel } : {}),
  };
  const caller = callerOf(p);
  const options = { ...contentOptions(p, signal), relay: input };
  switch (p.method) {
    case "tools/call": {
      const tool = required(p.name, "name", p.method);
      return callAnswering(
        `${p.namespace}.${tool}`,
        ownerKey(p),
        signal,
        (signal, pending) =>
          d.call(p.namespace, tool, p.arguments ?? {}, caller, {
            ...(p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
            signal,
            ...(pending ? { pending } : {}),
            relay: input,
            ...callNotify(p.notify, reply),
          }),
      );
    }
    case "prompts/get":
      return getPrompt(
        d.requests,
        p.namespace,
        required(p.name, "name", p.method),
        promptArguments(p.arguments ?? {}),
        caller,
        options,
      );
    case "resources/read":
      return readResource(
        d.requests,
        p.namespace,
        required(p.uri, "uri", p.method),
        {},
        caller,
        options,
      );
  }
}

function required(value: string | undefined, field: string, method: string): string {
  if (value === undefined) {
    throw new UsageError(`relay: ${method} needs "${field}"; send it with the request`);
  }
  return value;
}

/** Prompt arguments are strings (MCP `prompts/get`). */
function promptArguments(args: Record<string, unknown>): Record<string, string> {
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== "string") {
      throw new UsageError(
        `relay: prompt argument "${key}" must be a string, got ${JSON.stringify(value)}`,
      );
    }
  }
  return args as Record<string, string>;
}
