/**
 * Server-sent events as the daemon writes them and mcpx reads them (WHATWG
 * HTML, "Server-sent events", the `text/event-stream` format): each message is
 * `id:`, `event:` and `data:` lines ended by a blank line; a line starting
 * with `:` is a comment (the daemon's heartbeat). One event's data is one
 * line of JSON, so a message never needs more than one `data:` line; the
 * parser still joins several, as the format says.
 *
 * @module
 */

/** The media type of the stream. */
export const SSE_CONTENT_TYPE = "text/event-stream";

/** One message as written or read. */
export interface SseMessage {
  /** The `id:` line: what a reconnecting client sends as `Last-Event-ID`. */
  id?: string;
  /** The `event:` line (an event kind); absent means `message`. */
  event?: string;
  /** The `data:` lines, joined with `\n`. */
  data: string;
}

/**
 * One message's text.
 *
 * @param message Its `id` and `event` must hold no line break; `data` may (each line its own `data:`).
 * @throws {TypeError} When `id` or `event` holds a line break, which would end the field early.
 * @example
 * ```ts
 * import { encodeSse } from "./sse.ts";
 * const text = encodeSse({ id: "a1-3", event: "call.finished", data: '{"seq":3}' });
 * if (text !== 'id: a1-3\nevent: call.finished\ndata: {"seq":3}\n\n') throw new Error(text);
 * ```
 */
export function encodeSse(message: SseMessage): string {
  let text = "";
  for (const field of ["id", "event"] as const) {
    const value = message[field];
    if (value === undefined) continue;
    if (/[\r\n]/.test(value)) {
      throw new TypeError(`an SSE ${field} cannot hold a line break, got ${JSON.stringify(value)}`);
    }
    text += `${field}: ${value}\n`;
  }
  for (const line of message.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return text + "\n";
}

/**
 * A comment line (`: <text>`), which every reader ignores: sent periodically so
 * an idle connection carries bytes and proxies keep it open.
 */
export function sseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, " ")}\n\n`;
}

/**
 * Reads a stream's text, chunk by chunk, into messages; comments are dropped
 * and a message is given once its blank line has arrived.
 *
 * @example
 * ```ts
 * import { SseParser } from "./sse.ts";
 * const parser = new SseParser();
 * const first = parser.push(": hi\n\nid: 1\nevent: x\nda");
 * const second = parser.push("ta: {}\n\n");
 * if (first.length !== 0 || second[0].data !== "{}" || second[0].id !== "1") throw new Error();
 * ```
 */
export class SseParser {
  #rest = "";
  #id?: string;
  #event?: string;
  #data: string[] = [];

  /** Feeds `chunk`; returns the messages it completed, in order. */
  push(chunk: string): SseMessage[] {
    const out: SseMessage[] = [];
    let text = this.#rest + chunk;
    // A `\r` at the end may be the first half of `\r\n`: it waits for the next chunk.
    const held = text.endsWith("\r") ? "\r" : "";
    if (held) text = text.slice(0, -1);
    const lines = text.split(/\r\n|\r|\n/);
    // The last piece has no line end yet.
    this.#rest = (lines.pop() ?? "") + held;
    for (const line of lines) {
      if (line === "") {
        if (this.#data.length || this.#id !== undefined || this.#event !== undefined) {
          out.push({
            ...(this.#id !== undefined ? { id: this.#id } : {}),
            ...(this.#event !== undefined ? { event: this.#event } : {}),
            data: this.#data.join("\n"),
          });
        }
        this.#id = undefined;
        this.#event = undefined;
        this.#data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "id") this.#id = value;
      else if (field === "event") this.#event = value;
      else if (field === "data") this.#data.push(value);
    }
    return out;
  }
}
