/**
 * Logging through `mcpx serve --passthrough`: the upstream's log messages
 * (`notifications/message`) sent during a tool call reach the client that
 * made the call, on that call's stream (decision 0048).
 *
 * The daemon attributes a message to a call when the call is the only work in
 * flight on its instance (decision 0034) and keeps it on its message board
 * under the call's notify token (engine/message_board.ts); this module
 * long-polls the `callMessages` route while the call runs and sends each
 * message with the SDK's `ctx.mcpReq.log`, which applies the client's level:
 * the one it set with `logging/setLevel` on a 2025-era connection, or the
 * per-request `_meta` log level of a 2026-07-28 request (MCP 2025-11-25
 * "Logging"; 2026-07-28 SEP-2577).
 *
 * @module
 */

import {
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { CliContext } from "./context.ts";

/** A message as the daemon's `callMessages` answers it. */
interface CallMessage {
  seq: number;
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/**
 * Whether the request's client hears log messages: always on a 2025-era
 * connection (the SDK filters by the level it set, if any), only when the
 * request names a log level in `_meta` on a 2026-07-28 one.
 */
export function wantsLogMessages(sctx: ServerContext): boolean {
  const envelope = sctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope === undefined || envelope[LOG_LEVEL_META_KEY] !== undefined;
}

/**
 * Passes the log messages of the call with notify token `token` on to the
 * request's client until the call ends.
 *
 * @returns Waits for the relay to finish: call it once the call has answered
 *   (the daemon has then ended the token, so its last messages are read at
 *   once), before the result is sent, so every message precedes it.
 */
export function relayLogMessages(
  ctx: CliContext,
  sctx: ServerContext,
  token: string,
): () => Promise<void> {
  let after = 0;
  let stopped = false;
  const poll = async (holdMs: number): Promise<boolean> => {
    const answer = await ctx.request<{ messages: CallMessage[]; ended: boolean }>(
      "callMessages",
      { token, after, holdMs },
    ).catch(() => ({ messages: [], ended: true }));
    for (const m of answer.messages) {
      after = Math.max(after, m.seq);
      await sctx.mcpReq.log(m.level, m.data, m.logger).catch(() => {});
    }
    return answer.ended;
  };
  const relay = (async () => {
    while (!stopped) {
      if (await poll(1_000)) return;
    }
    // Stopped between polls: what the call left is read once more.
    await poll(0);
  })();
  return async () => {
    stopped = true;
    await relay;
  };
}
