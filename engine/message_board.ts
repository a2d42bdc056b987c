/**
 * What a call's server sent while it ran, kept for the caller that asked to
 * hear it: a call carrying a `notify` token (wire/caller.ts) posts each log
 * message attributed to it (engine/call_messages.ts) and each progress
 * notification here, and the caller long-polls the daemon's `callMessages`
 * route with the same token (cli/serve/passthrough_notices.ts passes them on to a
 * passthrough's client). Unlike the progress board, which keeps only the
 * latest update for a progress line, everything is kept, in order, up to
 * {@link MESSAGES_KEPT}; a call's queue outlives the call until it is read
 * once more (the last messages and the last progress come just before the
 * result) or {@link ENDED_KEPT_MS} passes. Decision 0048.
 *
 * @module
 */

import type { ServerMessage } from "./server_notifications.ts";
import type { Progress } from "./progress_log.ts";

/** What a call's server sent: a log message, or a progress notification (under `progress`). */
export type CallNotice = ServerMessage | { progress: Progress };

/** A notice as `callMessages` answers it; `seq` increases with each one of the board. */
export type BoardMessage = CallNotice & { seq: number };

/** The most messages kept per call; the oldest go first. */
export const MESSAGES_KEPT = 500;
/** How long an ended call's unread messages are kept, in ms. */
export const ENDED_KEPT_MS = 60_000;
/** The longest a poll is held, in ms. */
export const MESSAGES_HOLD_MAX_MS = 60_000;

interface Queue {
  messages: BoardMessage[];
  ended: boolean;
  waiters: Set<() => void>;
  expiry?: ReturnType<typeof setTimeout>;
}

/** Each token's messages, and the polls waiting for more. */
export class MessageBoard {
  #queues = new Map<string, Queue>();
  #seq = 0;

  #queue(token: string): Queue {
    let q = this.#queues.get(token);
    if (!q) this.#queues.set(token, q = { messages: [], ended: false, waiters: new Set() });
    return q;
  }

  #wake(q: Queue): void {
    for (const wake of [...q.waiters]) wake();
    q.waiters.clear();
  }

  /** The call with `token` heard `message` from its server: kept and told to its pollers. */
  post(token: string, message: CallNotice): void {
    const q = this.#queue(token);
    if (q.ended) return;
    q.messages.push({ ...message, seq: ++this.#seq });
    if (q.messages.length > MESSAGES_KEPT) q.messages.shift();
    this.#wake(q);
  }

  /** The call with `token` ended: its pollers are answered; unread messages wait a while. */
  end(token: string): void {
    // A call that heard nothing still ends: a poll after it is answered at once.
    const q = this.#queue(token);
    q.ended = true;
    this.#wake(q);
    const expiry = setTimeout(() => this.#queues.delete(token), ENDED_KEPT_MS);
    Deno.unrefTimer(expiry);
    q.expiry = expiry;
  }

  /**
   * The messages of `token` after `after`: at once when there are some or the
   * call has ended, else when one is posted or the call ends, or none once
   * `holdMs` (at most {@link MESSAGES_HOLD_MAX_MS}) passes or `signal` aborts.
   * `ended` says no more will come (an unknown token reads as not ended: its
   * call may not have begun yet). A poll that reads an ended call's last
   * messages forgets them.
   */
  async poll(
    token: string,
    after: number,
    holdMs: number,
    signal?: AbortSignal,
  ): Promise<{ messages: BoardMessage[]; ended: boolean }> {
    const read = () => {
      const q = this.#queues.get(token);
      const messages = q?.messages.filter((m) => m.seq > after) ?? [];
      const ended = q?.ended ?? false;
      if (ended) {
        clearTimeout(q!.expiry);
        this.#queues.delete(token);
      }
      return { messages, ended };
    };
    const now = read();
    if (now.messages.length || now.ended || signal?.aborted || holdMs <= 0) return now;
    const q = this.#queue(token);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        q.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(holdMs, MESSAGES_HOLD_MAX_MS));
      signal?.addEventListener("abort", done, { once: true });
      q.waiters.add(done);
    });
    const later = read();
    // A poll that found nothing leaves no empty queue behind for a token never posted to.
    const left = this.#queues.get(token);
    if (left && !left.ended && !left.messages.length && !left.waiters.size) {
      this.#queues.delete(token);
    }
    return later;
  }
}

/** The daemon's board (one per daemon process, as engine/progress_board.ts's is). */
export const messageBoard: MessageBoard = new MessageBoard();
