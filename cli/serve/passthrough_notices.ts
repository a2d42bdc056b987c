/**
 * What the upstream says during a tool call through `mcpx serve
 * --passthrough`, passed on to the client that made the call, on that call's
 * stream and before its result (decision 0048): its progress notifications
 * (when the client asked with `_meta.progressToken`) and its log messages
 * (`notifications/message`).
 *
 * The daemon keeps both, in the order they came, on its message board under
 * the call's notify token (engine/message_board.ts; a log message only when
 * the call is the only work in flight on its instance, decision 0034). This
 * module long-polls the `callMessages` route while the call runs and reads
 * it once more after the answer: the upstream's last progress and log
 * messages arrive just before its result, and one board read in order is
 * what makes every one of them precede the result here. Log messages go
 * through the SDK's `ctx.mcpReq.log`, which applies the client's level: the
 * one it set with `logging/setLevel` on a 2025-era connection, or the
 * per-request `_meta` log level of a 2026-07-28 request (MCP 2025-11-25
 * "Logging", "Progress"; 2026-07-28 SEP-2577).
 *
 * @module
 */

import {
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { CliContext } from "../context.ts";

/** A notice as the daemon's `callMessages` answers it: a log message or a progress update. */
type CallNotice =
  & { seq: number }
  & (
    | { level: LoggingLevel; logger?: string; data: unknown }
    | { progress: { progress: number; total?: number; message?: string } }
  );

/** What of the CLI context the relay uses: the daemon request. */
export type NoticeSource = Pick<CliContext, "request">;

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
 * Runs `send` with a notify token when the client asked for progress
 * (`_meta.progressToken`) or hears log messages (see
 * {@link wantsLogMessages}), and passes on what the call's server sent while
 * it ran, in order; every notice is sent before this resolves, so before the
 * caller sends the result. Without either, `send` gets no token.
 *
 * @param send The daemon's `call`, given the notify token to carry and the
 *   level to ask the upstream for log messages at ({@link upstreamLogLevel}).
 * @param options `legacyLogs`: whether a 2025-era client hears log messages
 *   (default true, the passthrough's; plain serve passes them on only once
 *   the client set a level with `logging/setLevel`, decision 0073).
 * @returns What `send` answers; what it throws is thrown after the relay ends.
 */
export async function withCallNotices<T>(
  ctx: NoticeSource,
  sctx: ServerContext,
  send: (notify: string | undefined, logLevel?: LoggingLevel) => Promise<T>,
  options: { legacyLogs?: boolean } = {},
): Promise<T> {
  const progressToken = sctx.mcpReq._meta?.progressToken;
  const logLevel = upstreamLogLevel(sctx, options.legacyLogs);
  const logs = logLevel !== undefined;
  if (progressToken === undefined && !logs) return await send(undefined);
  const notify = crypto.randomUUID();
  const pass = async (notice: CallNotice) => {
    if ("progress" in notice) {
      if (progressToken === undefined) return;
      const { progress, total, message } = notice.progress;
      await sctx.mcpReq.notify({
        method: "notifications/progress",
        params: {
          progressToken,
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message ? { message } : {}),
        },
      }).catch(() => {});
    } else if (logs) {
      await sctx.mcpReq.log(notice.level, notice.data, notice.logger).catch(() => {});
    }
  };
  const stop = relayNotices(ctx, notify, pass);
  try {
    return await send(notify, logLevel);
  } finally {
    await stop();
  }
}

/**
 * Passes each notice of the call with notify token `token` to `pass`, in
 * order, until the call ends.
 *
 * @returns Waits for the relay to finish: call it once the call has answered
 *   (the daemon has then ended the token, so its last notices are read at
 *   once).
 */
function relayNotices(
  ctx: NoticeSource,
  token: string,
  pass: (notice: CallNotice) => Promise<void>,
): () => Promise<void> {
  let after = 0;
  let stopped = false;
  // The long poll under way: stopping cuts its hold short. A call that stopped with a question
  // has not ended, so the daemon would hold the poll to its end (a second before the client
  // got the question's answer round).
  let holding: AbortController | undefined;
  const poll = async (holdMs: number): Promise<boolean> => {
    const hold = holding = new AbortController();
    const answer = await ctx.request<{ messages: CallNotice[]; ended: boolean }>(
      "callMessages",
      { token, after, holdMs },
      { signal: hold.signal },
    ).catch(() => ({ messages: [], ended: !hold.signal.aborted }));
    for (const notice of answer.messages) {
      if (notice.seq <= after) continue;
      after = notice.seq;
      await pass(notice);
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
    holding?.abort();
    await relay;
  };
}
