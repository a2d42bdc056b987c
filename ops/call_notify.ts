/**
 * What a call's notify token hears, in the daemon: one place that turns a
 * call's progress notifications and log messages into what its caller is
 * told before the answer (ops/route_handler.ts `Reply.notification`), used
 * by every route that runs a tool call (`call`, and `relay` for the
 * passthrough), so a call through either is heard the same way.
 *
 * Told on the request's own connection (daemon/live_answer.ts): a caller
 * that sent `live: true` hears each one as a line the moment its server
 * sends it, and every one before the result, in the server's order
 * (decision 0078).
 *
 * @module
 */

import type { Reply } from "./route_handler.ts";
import type { ServerMessage } from "../engine/server_notifications.ts";
import type { Progress } from "../engine/progress_log.ts";

/** The engine's call options that say a call's notifications to its caller. */
export interface CallNotify {
  onprogress?: (update: Progress) => void;
  onmessage?: (message: ServerMessage) => void;
}

/**
 * The options for a call that carries `notify`, saying its notifications
 * through `reply`.
 *
 * @param notify The caller's notify token; undefined: nothing is said.
 * @returns Options to spread into the engine's call options; empty without a token.
 */
export function callNotify(notify: string | undefined, reply: Reply): CallNotify {
  const say = reply.notification;
  if (!notify || !say) return {};
  return {
    onprogress: ({ progress, total, message }) =>
      say({
        method: "notifications/progress",
        params: {
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      }),
    onmessage: ({ level, logger, data }) =>
      say({
        method: "notifications/message",
        params: { level, ...(logger !== undefined ? { logger } : {}), data },
      }),
  };
}
