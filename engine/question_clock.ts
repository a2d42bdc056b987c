/**
 * A call's `callTimeout` that stops while a question the server asked during
 * the call is open (issue 13; decision 0040): the server is waiting on
 * somebody's answer, not failing to answer. The question's own deadline
 * bounds the pause, since an expired question is answered `cancel` and the
 * server goes on.
 *
 * @module
 */

import type { TimerId } from "../core/deadline.ts";
import type { PendingCall } from "./questions.ts";

/** A running clock; `stop()` it when the call ends. */
export interface QuestionClock {
  /** Starts the full time again (a progress notification, when the pool resets on progress). */
  reset(): void;
  stop(): void;
}

/**
 * Calls `onTimeout` once `ms` of time without an open question of `call`
 * has passed.
 *
 * @param ms The limit, in ms.
 */
export function questionClock(call: PendingCall, ms: number, onTimeout: () => void): QuestionClock {
  let left = ms;
  let since = Date.now();
  let timer: TimerId | undefined;
  const run = () => {
    since = Date.now();
    timer = setTimeout(onTimeout, Math.max(0, left));
  };
  const pause = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    left -= Date.now() - since;
  };
  const off = call.listen(() => {
    if (call.open.length) pause();
    else if (timer === undefined) run();
  });
  if (!call.open.length) run();
  return {
    reset() {
      left = ms;
      if (timer !== undefined) {
        clearTimeout(timer);
        run();
      }
    },
    stop() {
      off();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
