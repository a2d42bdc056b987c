/**
 * What the daemon says about a request before its answer, on the request's
 * own connection (the client side is wire/live_notes.ts): notes about the
 * request, and the notifications of a call's server.
 *
 * A handler says a note through its reply (ops/route_handler.ts
 * `Reply.note`): a wait for an instance others hold, a process of its own.
 * A call that carries a `notify` token says each progress update and log
 * message its server sends (`Reply.notification`, decision 0078). For a
 * caller that sent `live: true`, the first thing said before the answer is
 * ready turns the answer into a stream of lines: what was said so far, each
 * later thing as it is said, then the answer's body as the last line, so
 * every notification reaches the caller before the result, in the order the
 * server sent them, on one connection. Until then, and for every other
 * caller, what is said rides on the answer (`notes`, `notifications`), so
 * an answer ready at once costs what it always did: one JSON body.
 *
 * Source: issue 25, "a lease wait is something the daemon reports": the
 * caller does not read the configuration to guess whether it will wait;
 * issue 27, a call's notifications before its result.
 *
 * @module
 */

import type { WireNotification } from "../wire/wire.ts";

/** The most notifications kept for an answer that does not stream; the oldest go first. */
export const NOTIFICATIONS_KEPT = 500;

/** One line said ahead of the answer. */
type Said = { note: string } | { notification: WireNotification };

/** What is said about one request, and its answer as a stream once something was said in time. */
export class LiveAnswer {
  #pending: Said[] = [];
  #controller?: ReadableStreamDefaultController<Uint8Array>;
  #encoder = new TextEncoder();
  #said!: () => void;
  #first = new Promise<void>((resolve) => this.#said = resolve);

  /** The notes said and not yet sent: what the answer's body carries as `notes`. */
  get notes(): string[] {
    return this.#pending.flatMap((s) => "note" in s ? [s.note] : []);
  }

  /** The notifications said and not yet sent: what the answer's body carries as `notifications`. */
  get notifications(): WireNotification[] {
    return this.#pending.flatMap((s) => "notification" in s ? [s.notification] : []);
  }

  /** Says `text`: sent at once once the answer streams, else kept for it. */
  note(text: string): void {
    this.#say({ note: text });
  }

  /**
   * Says a notification of the call's server: sent at once once the answer
   * streams, else kept for it (at most the last {@link NOTIFICATIONS_KEPT}).
   */
  notification(notification: WireNotification): void {
    this.#say({ notification });
  }

  #say(said: Said): void {
    if (this.#controller) {
      this.#send(said);
      return;
    }
    this.#pending.push(said);
    if ("notification" in said && this.#pending.length > NOTIFICATIONS_KEPT) {
      const oldest = this.#pending.findIndex((s) => "notification" in s);
      this.#pending.splice(oldest, 1);
    }
    this.#said();
  }

  /**
   * Whether something was said before `work` settled: then the answer should
   * stream ({@link response}).
   */
  streams(work: Promise<unknown>): Promise<boolean> {
    return Promise.race([work.then(() => false, () => false), this.#first.then(() => true)]);
  }

  /**
   * The streamed answer: `application/x-ndjson`, what was said so far, each
   * later line as it is said, then `body`'s line when it settles. A `body`
   * that rejects ends the stream without an answer line, which the caller
   * reads as a connection lost in the middle of the answer.
   */
  response(body: Promise<Record<string, unknown>>): Response {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        for (const said of this.#pending.splice(0)) this.#send(said);
        body.then(
          (answer) => {
            this.#send(answer);
            this.#close(() => controller.close());
          },
          (error) => this.#close(() => controller.error(error)),
        );
      },
      cancel: () => {
        this.#controller = undefined;
      },
    });
    return new Response(stream, {
      headers: { "content-type": "application/x-ndjson; charset=utf-8" },
    });
  }

  #send(line: unknown): void {
    try {
      this.#controller?.enqueue(this.#encoder.encode(JSON.stringify(line) + "\n"));
    } catch { /* the caller went away: nothing is left to tell */ }
  }

  #close(end: () => void): void {
    if (!this.#controller) return;
    this.#controller = undefined;
    try {
      end();
    } catch { /* the caller went away */ }
  }
}
