/**
 * A request mcpx sends for a client it serves (`mcpx serve --passthrough`),
 * with the server's questions left for that client to answer (MCP 2026-07-28,
 * SEP-2322 multi-round-trip requests; decision 0049).
 *
 * Ordinarily mcpx is the client that answers: the SDK fulfils a server's
 * `input_required` result through mcpx's own handlers (engine/client_handlers.ts)
 * and sends the request again. A relayed request is sent in manual mode
 * instead (the SDK's `allowInputRequired`), so an `input_required` result is
 * answered as the server wrote it (its keys, its `requestState`, roots
 * included), and the next round carries the client's `inputResponses` and the
 * `requestState` back, with the client's own capabilities in the request's
 * `_meta` envelope in place of mcpx's.
 *
 * On a 2025-era connection none of this exists (a server asks with a request
 * of its own, which mcpx's question desk handles): the request is sent as it
 * would be otherwise.
 *
 * @module
 */

import {
  type Client,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
} from "@modelcontextprotocol/client";
import { SERVER_LOG_LEVELS, type ServerLogLevel } from "../config/types.ts";

/** What a relayed request carries besides its own params (SEP-2322). */
export interface InputRelay {
  /** The client's answers, under the keys the server asked them by; absent on the first round. */
  inputResponses?: Record<string, unknown>;
  /** The `requestState` of the server's last `input_required` result, byte for byte. */
  requestState?: string;
  /**
   * The capabilities of the client the request is made for, sent in the
   * request's `_meta` envelope in place of mcpx's; absent: mcpx's own.
   */
  clientCapabilities?: Record<string, unknown>;
  /**
   * The level at which the client the request is made for hears log
   * messages: a 2026-07-28 server declaring `logging` is asked for its
   * messages at it (or at the entry's `logLevel`, whichever is more
   * verbose) in the request's `_meta` (SEP-2577); absent: the entry's alone.
   */
  logLevel?: ServerLogLevel;
}

/**
 * The params and SDK request options of a relayed request on `client`'s
 * connection; `relay` absent or a 2025-era connection: `params` unchanged and
 * no options.
 *
 * @param params The request's own params (`name`, `arguments`, `uri`, `_meta`…).
 * @example
 * ```ts
 * import { relayed } from "./input_relay.ts";
 * const modern = { getProtocolEra: () => "modern" } as never;
 * const r = relayed(modern, { name: "t" }, { inputResponses: { a: { roots: [] } } });
 * if (!r.options.allowInputRequired || !("inputResponses" in r.params)) throw new Error();
 * ```
 */
export function relayed(
  client: Pick<Client, "getProtocolEra"> & Partial<Pick<Client, "getServerCapabilities">>,
  params: Record<string, unknown>,
  relay: InputRelay | undefined,
): { params: Record<string, unknown>; options: { allowInputRequired?: true } } {
  if (!relay || client.getProtocolEra() !== "modern") return { params, options: {} };
  const meta = { ...(params._meta ?? {}) as Record<string, unknown> };
  if (relay.clientCapabilities) meta[CLIENT_CAPABILITIES_META_KEY] = relay.clientCapabilities;
  if (relay.logLevel && client.getServerCapabilities?.()?.logging) {
    meta[LOG_LEVEL_META_KEY] = moreVerbose(
      relay.logLevel,
      meta[LOG_LEVEL_META_KEY] as ServerLogLevel | undefined,
    );
  }
  return {
    params: {
      ...params,
      ...(Object.keys(meta).length ? { _meta: meta } : {}),
      ...(relay.inputResponses ? { inputResponses: relay.inputResponses } : {}),
      ...(relay.requestState !== undefined ? { requestState: relay.requestState } : {}),
    },
    options: { allowInputRequired: true },
  };
}

/** Whether `result` is an `input_required` result (SEP-2322), as a relayed request may answer. */
export function isInputRequired(
  result: unknown,
): result is { resultType: "input_required"; inputRequests?: Record<string, unknown> } {
  return typeof result === "object" && result !== null &&
    (result as { resultType?: unknown }).resultType === "input_required";
}

/** The more verbose of two log levels (the one lower in {@link SERVER_LOG_LEVELS}); `b` may be absent. */
export function moreVerbose(a: ServerLogLevel, b: ServerLogLevel | undefined): ServerLogLevel {
  if (b === undefined) return a;
  return SERVER_LOG_LEVELS.indexOf(a) <= SERVER_LOG_LEVELS.indexOf(b) ? a : b;
}
