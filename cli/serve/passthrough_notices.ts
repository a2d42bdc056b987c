/**
 * What the upstream says during a tool call through `mcpx serve` (both
 * `--passthrough` and plain serve's `mcpx_call`), passed on to the client
 * that made the call, on that call's stream and before its result
 * (decisions 0048, 0073): its progress notifications (when the client asked
 * with `_meta.progressToken`) and its log messages (`notifications/message`).
 *
 * The daemon says both on the call's own connection, in the order the
 * upstream sent them and before the call's answer (a `notify` token,
 * decision 0078; a log message only when the call is the only work in
 * flight on its instance, decision 0034). This module passes each on as it
 * is heard and waits until every one has been sent before it answers: what
 * the upstream sent last, just before its result, is sent before the
 * result here too. Log messages go through the SDK's `ctx.mcpReq.log`,
 * which applies the client's level: the one it set with `logging/setLevel`
 * on a 2025-era connection, or the per-request `_meta` log level of a
 * 2026-07-28 request (MCP 2025-11-25 "Logging", "Progress"; 2026-07-28
 * SEP-2577).
 *
 * @module
 */

import {
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { WireNotification } from "../../wire/wire.ts";

/** Told each notification of the call's server, in order (cli/context_daemon.ts). */
export type HearNotification = (notification: WireNotification) => void;

/**
 * Whether the request's client hears log messages: on a 2025-era
 * connection when `legacyLogs` (default true: always, the SDK filtering by
 * the level the client set, if any), only when the request names a log
 * level in `_meta` on a 2026-07-28 one.
 */
export function wantsLogMessages(sctx: ServerContext, legacyLogs = true): boolean {
  const envelope = sctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope === undefined ? legacyLogs : envelope[LOG_LEVEL_META_KEY] !== undefined;
}

/**
 * The level to ask the upstream for log messages at while it serves this
 * request, so that a 2026-07-28 upstream (which sends none unless its request
 * names a level, SEP-2577) sends what this client hears: the request's own
 * `_meta` level on a 2026-07-28 connection, `debug` on a 2025-era one (the
 * SDK drops what is below the level the client set with `logging/setLevel`
 * on the way out). Undefined when the client hears no log messages
 * ({@link wantsLogMessages}, with `legacyLogs`).
 */
export function upstreamLogLevel(
  sctx: ServerContext,
  legacyLogs = true,
): LoggingLevel | undefined {
  if (!wantsLogMessages(sctx, legacyLogs)) return undefined;
  const envelope = sctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[LOG_LEVEL_META_KEY] as LoggingLevel | undefined) ?? "debug";
}

/**
 * Runs `send` with a listener when the client asked for progress
 * (`_meta.progressToken`) or hears log messages (see
 * {@link wantsLogMessages}), and passes on each notification the call's
 * server sent as the listener hears it, in order; every one is sent before
 * this resolves, so before the caller sends the result. Without either,
 * `send` gets no listener (and the call carries no notify token).
 *
 * @param send The daemon's `call` or `relay`, given the listener to pass
 *   as `onNotification` (cli/context_daemon.ts) and the level to ask the
 *   upstream for log messages at ({@link upstreamLogLevel}).
 * @param options `legacyLogs`: whether a 2025-era client hears log messages
 *   (default true, the passthrough's; plain serve passes them on only once
 *   the client set a level with `logging/setLevel`, decision 0073).
 * @returns What `send` answers; what it throws is thrown once every
 *   notification heard is sent.
 */
export async function withCallNotices<T>(
  sctx: ServerContext,
  send: (hear: HearNotification | undefined, logLevel?: LoggingLevel) => Promise<T>,
  options: { legacyLogs?: boolean } = {},
): Promise<T> {
  const progressToken = sctx.mcpReq._meta?.progressToken;
  const logLevel = upstreamLogLevel(sctx, options.legacyLogs);
  const logs = logLevel !== undefined;
  if (progressToken === undefined && !logs) return await send(undefined);
  const pass = async (notification: WireNotification) => {
    if (notification.method === "notifications/progress") {
      if (progressToken === undefined) return;
      await sctx.mcpReq.notify({
        method: "notifications/progress",
        params: { progressToken, ...notification.params },
      });
    } else if (logs) {
      const { level, data, logger } = notification.params;
      await sctx.mcpReq.log(level as LoggingLevel, data, logger);
    }
  };
  // Heard as the daemon's lines arrive, sent one after another: the order the upstream's.
  let sent = Promise.resolve();
  const hear = (notification: WireNotification) => {
    sent = sent.then(() => pass(notification)).catch(() => {});
  };
  try {
    return await send(hear, logLevel);
  } finally {
    await sent;
  }
}
