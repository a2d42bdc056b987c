/**
 * What the daemon says ahead of an answer, heard as it arrives: notes about
 * the request, and the notifications of a call's server.
 *
 * A caller that sends `live: true` (wire/caller.ts) may get its answer as a
 * stream of lines (`application/x-ndjson`, chunked): zero or more
 * `{"note":"…"}` lines, each sent when the daemon has something to say
 * while the request runs (a wait for an instance others hold), and
 * `{"notification":{…}}` lines, each a progress update or log message the
 * call's server sent (decision 0078, when the call carries a `notify`
 * token), in the order said, then the answer itself, `{"ok":…}`, as its
 * last line (daemon/http.ts). When nothing was said before the answer was
 * ready, the answer is one ordinary JSON body and what was said rides on it
 * (`notes`, `notifications`). Either way wire/answer.ts `readAnswer` reads
 * them and the answer from the whole body; this module lets the caller act
 * on each while the request is still open.
 *
 * @module
 */

import { LIVE_LINE_PREFIXES, wireNotificationOf } from "./answer.ts";
import type { WireNotification } from "./wire.ts";

const PREFIXES = LIVE_LINE_PREFIXES.map((prefix) => new TextEncoder().encode(prefix));
/** How many bytes of a line are looked at to tell its kind. */
const LONGEST = Math.max(...PREFIXES.map((prefix) => prefix.length));

/** Whether `line` followed by `byte` begins as one of the kinds of line sent ahead of an answer. */
function beginsLive(line: number[], byte: number): boolean {
  const at = line.length;
  return PREFIXES.some((prefix) => {
    for (let i = 0; i < Math.min(at, prefix.length); i++) if (line[i] !== prefix[i]) return false;
    return at >= prefix.length || prefix[at] === byte;
  });
}

/** CR LF CR LF: where an HTTP head ends. */
const HEAD_END = [13, 10, 13, 10];

/**
 * Reads a raw HTTP/1.1 response as its bytes arrive and calls `onNote` with
 * each note line of a chunked body and `onNotification` with each
 * notification line, in order. It stops looking at the first line that is
 * neither (the answer, however large, is not buffered here) and on a body
 * that is not chunked.
 *
 * @example
 * ```ts
 * import { LiveNotes } from "./live_notes.ts";
 * const heard: string[] = [];
 * const live = new LiveNotes((text) => heard.push(text));
 * const line = '{"note":"waiting"}\n';
 * const bytes = new TextEncoder().encode(
 *   "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n" +
 *     `${line.length.toString(16)}\r\n${line}\r\n`,
 * );
 * live.push(bytes.subarray(0, 30));
 * live.push(bytes.subarray(30));
 * if (heard.join() !== "waiting" || live.heard !== 1) throw new Error(heard.join());
 * ```
 */
export class LiveNotes {
  #onNote: (text: string) => void;
  #onNotification: (notification: WireNotification) => void;
  #state: "head" | "size" | "data" | "crlf" | "off" = "head";
  /** The chunk-size line so far, or the CRLF after a chunk. */
  #text = "";
  /** The head's bytes so far. */
  #head: number[] = [];
  /** How many bytes of CR LF CR LF (the head's end) the head ends with so far. */
  #endRun = 0;
  /** Bytes left in the current chunk. */
  #left = 0;
  /** The current line's bytes so far. */
  #line: number[] = [];
  /** How many notes were told. */
  heard = 0;
  /** How many notifications were told. */
  notificationsHeard = 0;

  /**
   * @param onNote Told each note's text, once, in the order sent.
   * @param onNotification Told each notification, once, in the order sent
   *   (among the notes too).
   */
  constructor(
    onNote: (text: string) => void,
    onNotification: (notification: WireNotification) => void = () => {},
  ) {
    this.#onNote = onNote;
    this.#onNotification = onNotification;
  }

  /** Takes the next bytes of the response, as read. */
  push(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length && this.#state !== "off"; i++) {
      const byte = bytes[i];
      switch (this.#state) {
        case "head":
          // Byte by byte, no string grows: every answer to a live caller passes through here.
          this.#head.push(byte);
          this.#endRun = byte === HEAD_END[this.#endRun] ? this.#endRun + 1 : byte === 13 ? 1 : 0;
          if (this.#endRun === HEAD_END.length) {
            const head = String.fromCharCode(...this.#head);
            this.#state = /^transfer-encoding:\s*chunked\s*$/im.test(head) ? "size" : "off";
            this.#head = [];
          }
          break;
        case "size":
          this.#text += String.fromCharCode(byte);
          if (this.#text.endsWith("\r\n")) {
            this.#left = parseInt(this.#text, 16);
            this.#text = "";
            this.#state = this.#left > 0 ? "data" : "off";
          }
          break;
        case "data":
          this.#byte(byte);
          if (--this.#left === 0 && this.#state === "data") this.#state = "crlf";
          break;
        case "crlf":
          this.#text += String.fromCharCode(byte);
          if (this.#text.length === 2) {
            this.#text = "";
            this.#state = "size";
          }
          break;
      }
    }
  }

  /**
   * One byte of the body: a line ends at a newline; a line that begins as
   * neither a note nor a notification ends the looking.
   */
  #byte(byte: number): void {
    if (byte !== 10) {
      if (this.#line.length < LONGEST && !beginsLive(this.#line, byte)) {
        this.#state = "off";
        return;
      }
      this.#line.push(byte);
      return;
    }
    const text = new TextDecoder().decode(new Uint8Array(this.#line));
    this.#line = [];
    let said: { note?: unknown; notification?: unknown };
    try {
      said = JSON.parse(text);
    } catch {
      this.#state = "off";
      return;
    }
    if (typeof said.note === "string") {
      this.heard++;
      this.#onNote(said.note);
      return;
    }
    const notification = wireNotificationOf(said.notification);
    if (!notification) return;
    this.notificationsHeard++;
    this.#onNotification(notification);
  }
}
