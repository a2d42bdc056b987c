/**
 * The explorer's input, one line at a time (decision 0082). Bytes are asked
 * for only when a line is wanted, so no read of stdin is pending while a
 * command runs: a question a tool asks at the terminal (cli/call/question.ts)
 * reads the same stdin meanwhile, and must get what the person types.
 *
 * @module
 */

import { type InputLimit, inputTooLarge } from "../../core/bounded_read.ts";

/** Reads into `buffer`: the number of bytes read, or null at the end of input (Deno.Reader's `read`). */
export type ReadBytes = (buffer: Uint8Array) => Promise<number | null>;

const NEWLINE = 0x0a;

/**
 * Lines of a byte source, each without its line ending (`\n` or `\r\n`).
 *
 * @example
 * ```ts
 * import { LineReader } from "./line_reader.ts";
 * const bytes = new TextEncoder().encode("ls\r\ntypes fs");
 * let given = false;
 * const lines = new LineReader(async (buffer) => {
 *   if (given) return null;
 *   given = true;
 *   buffer.set(bytes);
 *   return bytes.length;
 * }, { maxBytes: 1024 });
 * if (await lines.next() !== "ls" || await lines.next() !== "types fs") throw new Error();
 * if (await lines.next() !== undefined) throw new Error();
 * ```
 */
export class LineReader {
  #read: ReadBytes;
  #limit: InputLimit;
  /** Bytes read and not yet handed out as a line. */
  #pending = new Uint8Array(0);
  #ended = false;
  #decoder = new TextDecoder();

  /**
   * @param read The source (`(b) => Deno.stdin.read(b)`).
   * @param limit The longest line accepted, in bytes (the setting `input.maxBytes`).
   */
  constructor(read: ReadBytes, limit: InputLimit) {
    this.#read = read;
    this.#limit = limit;
  }

  /**
   * The next line, reading only as much as it takes.
   *
   * @returns The line (its `\r\n` or `\n` removed; a last line without one as it is),
   *   or undefined at the end of input.
   * @throws {InputError} For a line longer than the limit (the rest of it is not read).
   */
  async next(): Promise<string | undefined> {
    for (;;) {
      const end = this.#pending.indexOf(NEWLINE);
      if (end >= 0) {
        const line = this.#pending.subarray(0, end);
        this.#pending = this.#pending.slice(end + 1);
        return this.#text(line);
      }
      if (this.#pending.length > this.#limit.maxBytes) {
        throw inputTooLarge("a line of explore's input", this.#pending.length, this.#limit);
      }
      if (this.#ended) {
        if (this.#pending.length === 0) return undefined;
        const last = this.#pending;
        this.#pending = new Uint8Array(0);
        return this.#text(last);
      }
      const buffer = new Uint8Array(16 * 1024);
      const n = await this.#read(buffer);
      if (n === null) {
        this.#ended = true;
        continue;
      }
      const joined = new Uint8Array(this.#pending.length + n);
      joined.set(this.#pending);
      joined.set(buffer.subarray(0, n), this.#pending.length);
      this.#pending = joined;
    }
  }

  #text(bytes: Uint8Array): string {
    const text = this.#decoder.decode(bytes);
    return text.endsWith("\r") ? text.slice(0, -1) : text;
  }
}
