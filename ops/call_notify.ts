/**
 * What a call's notify token hears, in the daemon: one place that wires a
 * call's progress and log messages to the boards a caller polls, used by
 * every route that runs a tool call (`call`, and `relay` for the
 * passthrough), so a call through either is heard the same way.
 *
 * The progress board keeps a call's latest update (what `mcpx call`'s
 * progress line polls, `progress` route); the message board keeps every
 * update and log message in order (what the passthrough polls,
 * `callMessages` route; decision 0048).
 *
 * @module
 */

import { progressBoard } from "../engine/progress_board.ts";
import { messageBoard } from "../engine/message_board.ts";
import type { ServerMessage } from "../engine/server_notifications.ts";
import type { Progress } from "../engine/progress_log.ts";

/** The call options that post to the boards, and the end of the call's entries. */
export interface CallNotify {
  /** Spread into the engine's call options; empty without a token. */
  options: {
    onprogress?: (update: Progress) => void;
    onmessage?: (message: ServerMessage) => void;
  };
  /** Ends the token's entries on both boards (they are kept for a last read). */
  end(): void;
}

/**
 * The board wiring for a call that carries `notify`.
 *
 * @param notify The caller's notify token; undefined: nothing is posted.
 * @returns Options to spread into the call and `end()` for its `finally`.
 */
export function callNotify(notify: string | undefined): CallNotify {
  if (!notify) return { options: {}, end: () => {} };
  return {
    options: {
      onprogress: (update) => {
        progressBoard.post(notify, update);
        messageBoard.post(notify, { progress: update });
      },
      onmessage: (message) => messageBoard.post(notify, message),
    },
    end: () => {
      progressBoard.end(notify);
      messageBoard.end(notify);
    },
  };
}
