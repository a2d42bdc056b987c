/**
 * The upstream's questions in `mcpx serve --passthrough` (decisions 0045,
 * 0049): how a request's rounds go between the passthrough's client, the
 * daemon and the upstream.
 *
 * - A 2026-07-28 upstream asks by answering `input_required` (SEP-2322). The
 *   daemon relays the request (its `relay` route, engine/input_relay.ts) and
 *   answers that result as the upstream wrote it: its keys, roots requests
 *   and several requests at once, during `tools/call`, `prompts/get` or
 *   `resources/read` alike. The passthrough hands it on, its `requestState`
 *   sealed inside the passthrough's own, and sends the client's
 *   `inputResponses` and the upstream's state back on the next round.
 * - A 2025-era upstream asks with a request of its own during a tool call;
 *   the daemon keeps it as a question (decision 0040) and answers
 *   `{ question }`, which the passthrough puts to its client under the one
 *   key {@link ASKED}, its id sealed in the state; the next round answers it
 *   through the daemon's `questionAnswer`.
 *
 * On a 2025-era connection to the passthrough's client, the SDK turns either
 * `input_required` result into real requests to the client and runs the next
 * round itself.
 *
 * @module
 */

import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  type InputResponseView,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { askQuestion, responseTo } from "../call/question_round.ts";
export { answerFields as answerOf } from "../call/question_round.ts";

/** A question a call was asked, as the daemon's `call` and `questionAnswer` answer it. */
export interface Question {
  id: string;
  kind: "elicitation" | "sampling";
  mode?: "form" | "url";
  message: string;
  request: Record<string, unknown>;
}

/** The key of the one input request a stored question is put under. */
export const ASKED = "upstream";

/**
 * What the passthrough seals into a round's `requestState`: the stored
 * question it asked, or the upstream's own `requestState`.
 */
export interface RoundState {
  question?: string;
  upstream?: string;
}

/** The codec that seals and verifies {@link RoundState} (HMAC key of the process). */
export type RoundCodec = ReturnType<typeof createRequestStateCodec<RoundState>>;

/** A codec with a fresh random key: state sealed by this process is verified by it alone. */
export function roundCodec(): RoundCodec {
  return createRequestStateCodec<RoundState>({ key: crypto.getRandomValues(new Uint8Array(32)) });
}

/**
 * What the client's request answers: a stored question (`question`, with the
 * client's response), or the upstream's round (`relay`: the client's
 * `inputResponses` and the upstream's `requestState`, each when present).
 */
export type Round =
  | { question: { id: string; response: InputResponseView } }
  | { relay: { inputResponses?: Record<string, unknown>; requestState?: string } };

/** The round `sctx`'s request answers (its sealed state, verified by the SDK, and its responses). */
export async function roundOf(sctx: ServerContext): Promise<Round> {
  const state = await sctx.mcpReq.requestState<RoundState>();
  const responses = sctx.mcpReq.inputResponses;
  if (state?.question) {
    // The one response, under the key asked or, from a client that keeps its own keys, alone.
    return { question: { id: state.question, response: responseTo(responses, ASKED) } };
  }
  return {
    relay: {
      ...(responses && Object.keys(responses).length ? { inputResponses: responses } : {}),
      ...(state?.upstream !== undefined ? { requestState: state.upstream } : {}),
    },
  };
}

/**
 * The capabilities the passthrough's client declared: a 2026-07-28 request's
 * `_meta` envelope, else the 2025-era handshake's; undefined when neither
 * says (the upstream then sees mcpx's).
 */
export function clientCapabilitiesOf(
  sctx: ServerContext,
  handshake: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const envelope = sctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const meta = sctx.mcpReq._meta as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? meta?.[CLIENT_CAPABILITIES_META_KEY];
  if (typeof declared === "object" && declared !== null) return declared as Record<string, unknown>;
  return handshake;
}

/**
 * What the passthrough answers for the daemon's answer: the upstream's
 * `input_required` result with its state sealed in the passthrough's; a
 * stored question as an `input_required` result of the passthrough's own;
 * anything else (the upstream's result) as it is.
 *
 * @param data Sent with an upstream error that names no data of its own.
 * @throws {ProtocolError} with the upstream's code, message and data when
 *   the upstream answered an error (the `relay` route's `upstreamError`); a
 *   -32002 (resource not found before 2026-07-28) as -32602 (SEP-2164).
 */
export async function passOn(
  answer: unknown,
  codec: RoundCodec,
  data?: Record<string, unknown>,
): Promise<unknown> {
  if (typeof answer !== "object" || answer === null) return answer;
  const a = answer as Record<string, unknown>;
  const failed = a.upstreamError as { code: number; message: string; data?: unknown } | undefined;
  if (failed && typeof failed.code === "number") {
    throw new ProtocolError(
      failed.code === -32002 ? ProtocolErrorCode.InvalidParams : failed.code,
      failed.message,
      failed.data ?? data,
    );
  }
  if (a.resultType === "input_required") {
    const state = typeof a.requestState === "string"
      ? await codec.mint({ upstream: a.requestState })
      : undefined;
    return inputRequired({
      ...(a.inputRequests ? { inputRequests: a.inputRequests as never } : {}),
      ...(state !== undefined ? { requestState: state } : {}),
    } as never);
  }
  if ("question" in a && !("content" in a)) {
    return await askQuestion(a.question as Question, ASKED, (state) => codec.mint(state));
  }
  return answer;
}
