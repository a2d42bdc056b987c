/**
 * How the live views (log, servers, sessions) hear that something changed:
 * the daemon's event bus read as Server-Sent Events (`GET /v1/events` on the
 * daemon's socket; engine/event_bus.ts says what an event is), resumed with
 * `Last-Event-ID` after a break; and, while no daemon runs or the one that
 * runs has no bus to read (it answers anything but an event stream), a poll:
 * a `poll` tick every {@link FollowOptions.pollMs}, trying the bus again every
 * {@link FollowOptions.retryMs}.
 *
 * @module
 */

import { VERSION } from "../../core/version.ts";
import { VERSION_HEADER } from "../../wire/wire.ts";
import type { LiveEvent, LiveMode } from "./tui_data.ts";

/** One message of an event stream (the HTML standard's "Server-sent events" fields). */
export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Reads Server-Sent Events from text chunks: feed it what arrives, get the
 * complete messages back. A message ends at a blank line; `data:` lines join
 * with newlines; a line starting with `:` is a comment; a message with no
 * `data:` line is dispatched only when it has an id or event, as a heartbeat
 * carries neither.
 *
 * @example
 * ```ts
 * import { SseParser } from "./live_feed.ts";
 * const parser = new SseParser();
 * const first = parser.push("id: 7-1\nevent: server.started\ndata: {\"server\":\"fs\"}\n");
 * const second = parser.push("\n");
 * if (first.length !== 0 || second[0].event !== "server.started") throw new Error();
 * ```
 */
export class SseParser {
  #buffer = "";
  #message: { id?: string; event?: string; data: string[] } = { data: [] };

  /** The messages `chunk` completes. */
  push(chunk: string): SseMessage[] {
    this.#buffer += chunk;
    const out: SseMessage[] = [];
    let end: number;
    while ((end = this.#buffer.search(/\r\n|\n|\r/)) >= 0) {
      // A CR last may be half of a CRLF whose LF has not arrived.
      if (end === this.#buffer.length - 1 && this.#buffer.endsWith("\r")) break;
      const line = this.#buffer.slice(0, end);
      const breakLength = this.#buffer.startsWith("\r\n", end) ? 2 : 1;
      this.#buffer = this.#buffer.slice(end + breakLength);
      if (line === "") {
        const m = this.#message;
        if (m.data.length || m.id !== undefined || m.event !== undefined) {
          out.push({
            ...(m.id !== undefined ? { id: m.id } : {}),
            ...(m.event !== undefined ? { event: m.event } : {}),
            data: m.data.join("\n"),
          });
        }
        this.#message = { data: [] };
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") this.#message.data.push(value);
      else if (field === "event") this.#message.event = value;
      else if (field === "id") this.#message.id = value;
    }
    return out;
  }
}

/** What {@link followDaemon} needs. */
export interface FollowOptions {
  /** The daemon's socket path (it need not be running). */
  socket: () => Promise<string>;
  listener: (event: LiveEvent) => void;
  onMode: (mode: LiveMode) => void;
  signal: AbortSignal;
  /** ms between poll ticks while the bus cannot be read (default 2000). */
  pollMs?: number;
  /** ms between attempts to read the bus while polling (default 5000). */
  retryMs?: number;
}

/**
 * Follows the daemon's events until `signal` aborts; never throws (a failure
 * to read the bus is the poll's cue).
 */
export function followDaemon(options: FollowOptions): void {
  const { signal, listener, onMode } = options;
  const pollMs = options.pollMs ?? 2000;
  const retryMs = options.retryMs ?? 5000;
  let lastId: string | undefined;
  let mode: LiveMode = "off";
  const setMode = (next: LiveMode) => {
    if (next !== mode) onMode(mode = next);
  };
  const run = async () => {
    while (!signal.aborted) {
      const streamed = await readBus(
        await options.socket().catch(() => undefined),
        lastId,
        signal,
        (message) => {
          setMode("events");
          if (message.id) lastId = message.id;
          listener(eventOf(message));
        },
        () => setMode("events"),
      );
      if (signal.aborted) return;
      if (!streamed) setMode("polling");
      // Poll until the next attempt: a tick each pollMs.
      const until = Date.now() + (streamed ? 500 : retryMs);
      while (!signal.aborted && Date.now() < until) {
        await pause(Math.min(pollMs, until - Date.now()), signal);
        if (!signal.aborted && mode === "polling") listener({ kind: "poll" });
      }
    }
  };
  run().catch(() => setMode("polling"));
}

/** A bus message as the browser needs it: its kind and the server it is about. */
function eventOf(message: SseMessage): LiveEvent {
  let server: string | undefined;
  try {
    const data = JSON.parse(message.data);
    if (typeof data?.server === "string") server = data.server;
  } catch {
    // Not JSON: the kind alone says enough.
  }
  return { kind: message.event ?? "message", ...(server ? { server } : {}) };
}

/**
 * Reads the bus until the stream ends; false when there was no stream (no
 * daemon, no route, another answer).
 */
async function readBus(
  socket: string | undefined,
  lastId: string | undefined,
  signal: AbortSignal,
  onMessage: (message: SseMessage) => void,
  onOpen: () => void,
): Promise<boolean> {
  if (!socket || socket.includes("://")) return false;
  let client: Deno.HttpClient | undefined;
  try {
    await Deno.stat(socket);
    client = Deno.createHttpClient({ proxy: { transport: "unix", path: socket } });
    const response = await fetch("http://mcpx/v1/events", {
      client,
      signal,
      headers: {
        accept: "text/event-stream",
        [VERSION_HEADER]: VERSION,
        ...(lastId ? { "last-event-id": lastId } : {}),
      },
    });
    if (!response.ok || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
      await response.body?.cancel();
      return false;
    }
    onOpen();
    const parser = new SseParser();
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
        onMessage(message);
      }
    }
    return true;
  } catch {
    return false;
  } finally {
    client?.close();
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
