/**
 * What a daemon being replaced (`mcpx daemon upgrade`, decision 0084) does
 * with the requests that reach it: while it hands its servers over, each new
 * request waits here (never refused, so no caller sees an error or starts a
 * daemon of its own); once the new daemon serves, each is forwarded to it
 * over the socket, the answer streamed back as it comes. `health` and
 * `upgrade` itself are never held.
 *
 * @module
 */

/** Routes answered at once while requests are held. */
const NEVER_HELD = new Set(["/v1/health", "/v1/upgrade"]);

/** Holds, then forwards, the requests of a daemon being replaced. */
export class UpgradeGate {
  #held?: PromiseWithResolvers<void>;
  #target?: { socket: string; client: Deno.HttpClient };
  /** The longest a request waited here, in ms. */
  longestWaitMs = 0;
  /** Requests held so far. */
  heldCount = 0;
  /** Forwarded requests whose answer has not been read to its end. */
  #forwarding = 0;
  #idle?: PromiseWithResolvers<void>;
  /** When the first request held now arrived (`performance.now()`). */
  #firstHeldAt?: number;

  /** True while requests are held or forwarded. */
  get engaged(): boolean {
    return this.#held !== undefined || this.#target !== undefined;
  }

  /** From now on, every request but `health` and `upgrade` waits. */
  hold(): void {
    this.#held ??= Promise.withResolvers<void>();
  }

  /** Lets the requests held go on here (an upgrade that failed). */
  open(): void {
    const held = this.#held;
    this.#held = undefined;
    // Every request held goes on at this moment: the first to arrive waited longest.
    if (this.#firstHeldAt !== undefined) {
      this.longestWaitMs = Math.max(this.longestWaitMs, performance.now() - this.#firstHeldAt);
      this.#firstHeldAt = undefined;
    }
    held?.resolve();
  }

  /** Forwards every request (those held, then every later one) to the daemon on `socket`. */
  forwardTo(socket: string): void {
    this.#target = {
      socket,
      client: Deno.createHttpClient({ proxy: { transport: "unix", path: socket } }),
    };
    this.open();
  }

  /**
   * Answers `request` here (`local`), after waiting while requests are held,
   * or forwards it once a new daemon serves.
   */
  async handle(
    request: Request,
    local: (request: Request) => Promise<Response>,
  ): Promise<Response> {
    const url = new URL(request.url);
    if (NEVER_HELD.has(url.pathname) && !this.#target) {
      // The upgrade's own answer must be read whole before this daemon exits.
      return url.pathname === "/v1/upgrade" ? this.#counted(await local(request)) : local(request);
    }
    const held = this.#held;
    if (held) {
      this.heldCount++;
      this.#firstHeldAt ??= performance.now();
      await held.promise;
    }
    const target = this.#target;
    if (!target) return local(request);
    const body = request.method === "GET" || request.method === "HEAD"
      ? undefined
      : await request.arrayBuffer();
    this.#forwarding++;
    try {
      const answer = await fetch(`http://daemon${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body,
        client: target.client,
        signal: request.signal,
      });
      return this.#counted(answer);
    } finally {
      this.#forwarded();
    }
  }

  /**
   * `answer` again, marked `connection: close`, and counted in {@link drained}
   * until its body has been read.
   */
  #counted(answer: Response): Response {
    if (!answer.body) {
      const headers = new Headers(answer.headers);
      headers.set("connection", "close");
      return new Response(null, { status: answer.status, headers });
    }
    this.#forwarding++;
    const counted = new TransformStream<Uint8Array, Uint8Array>({
      flush: () => this.#forwarded(),
      cancel: () => this.#forwarded(),
    } as Transformer<Uint8Array, Uint8Array>);
    // A connection to this daemon is not kept (RFC 9112 §9.6): its client's next request
    // opens one to the new daemon, rather than racing this daemon's exit on an idle one.
    const headers = new Headers(answer.headers);
    headers.set("connection", "close");
    return new Response(answer.body.pipeThrough(counted), { status: answer.status, headers });
  }

  /** Resolves once no forwarded request's answer is still being read. */
  drained(): Promise<void> {
    if (this.#forwarding === 0) return Promise.resolve();
    this.#idle ??= Promise.withResolvers<void>();
    return this.#idle.promise;
  }

  #forwarded(): void {
    if (--this.#forwarding > 0) return;
    this.#idle?.resolve();
    this.#idle = undefined;
  }
}
