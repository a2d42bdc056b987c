/**
 * What the daemon says about a request before its answer, on the request's
 * own connection (the client side is wire/live_notes.ts).
 *
 * A handler says a note through its reply (ops/route_handler.ts
 * `Reply.note`): a wait for an instance others hold, a process of its own.
 * For a caller that sent `live: true`, the first note said before the answer
 * is ready turns the answer into a stream of lines: the notes so far, each
 * later one as it is said, then the answer's body as the last line. Until
 * then, and for every other caller, notes ride on the answer (`notes`), so
 * an answer ready at once costs what it always did: one JSON body.
 *
 * Source: issue 25, "a lease wait is something the daemon reports": the
 * caller does not read the configuration to guess whether it will wait.
 *
 * @module
 */

/** The notes of one request, and its answer as a stream once one was said in time. */
export class LiveAnswer {
  #pending: string[] = [];
  #controller?: ReadableStreamDefaultController<Uint8Array>;
  #encoder = new TextEncoder();
  #said!: () => void;
  #first = new Promise<void>((resolve) => this.#said = resolve);

  /** The notes said and not yet sent: what the answer's body carries as `notes`. */
  get notes(): string[] {
    return this.#pending;
  }

  /** Says `text`: sent at once once the answer streams, else kept for it. */
  note(text: string): void {
    if (this.#controller) {
      this.#send({ note: text });
      return;
    }
    this.#pending.push(text);
    this.#said();
  }

  /**
   * Whether a note was said before `work` settled: then the answer should
   * stream ({@link response}).
   */
  streams(work: Promise<unknown>): Promise<boolean> {
    return Promise.race([work.then(() => false, () => false), this.#first.then(() => true)]);
  }

  /**
   * The streamed answer: `application/x-ndjson`, the notes said so far, each
   * later one as it is said, then `body`'s line when it settles. A `body`
   * that rejects ends the stream without an answer line, which the caller
   * reads as a connection lost in the middle of the answer.
   */
  response(body: Promise<Record<string, unknown>>): Response {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        for (const text of this.#pending.splice(0)) this.#send({ note: text });
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
    } catch { /* already cancelled */ }
  }
}
