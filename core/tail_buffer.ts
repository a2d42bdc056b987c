/**
 * A bounded text buffer that keeps only the most recent characters: a
 * server's stderr tail for `mcpx status` and start-failure messages, and
 * {@link tailExcerpt}, the part of such a tail worth printing.
 *
 * @module
 */

/** Characters of stderr kept per server process: at least the last 4 KiB of any text. */
export const STDERR_TAIL_CHARS = 8192;

/** Keeps the last `limit` characters appended (UTF-16 code units). */
export class TailBuffer {
  #text = "";
  /** True once older text was dropped, so the first kept line may be partial. */
  #cut = false;
  readonly limit: number;

  /** @param limit Characters kept, at least 1. @throws {RangeError} when limit < 1. */
  constructor(limit: number) {
    if (limit < 1) throw new RangeError(`a tail buffer needs a limit of at least 1, got ${limit}`);
    this.limit = limit;
  }

  /** Adds text, dropping the oldest characters beyond the limit. */
  append(text: string): void {
    this.#text += text;
    if (this.#text.length > this.limit * 2) {
      this.#text = this.#text.slice(-this.limit);
      this.#cut = true;
    }
  }

  /** The kept text, at most `limit` characters, starting at a line boundary when one exists. */
  toString(): string {
    if (this.#text.length <= this.limit && !this.#cut) return this.#text;
    const tail = this.#text.slice(-this.limit);
    const newline = tail.indexOf("\n");
    return newline >= 0 && newline < tail.length - 1 ? tail.slice(newline + 1) : tail;
  }

  /** The last `n` non-empty lines. */
  lastLines(n: number): string[] {
    return this.toString().split("\n").filter((line) => line.trim() !== "").slice(-n);
  }
}

/** A stack frame line of node, deno or bun (`    at foo (file.js:1:2)`). */
const STACK_FRAME = /^\s+at\s/;
/**
 * A line that states an error: `Error: …`, `TypeError [ERR_X]: …`, `npm error …`,
 * `npm ERR! …`, `error: …`, `fatal: …`, `panic: …`, `Traceback …`, `FooException: …`.
 */
const ERROR_LINE =
  /^\s*(?:[A-Za-z_.]*(?:Error|Exception)\b|npm (?:error|ERR!)|error\b|fatal\b|panic\b|Traceback\b)/;
/** The longest line an excerpt keeps, in characters. */
const EXCERPT_LINE_CHARS = 300;

/**
 * The part of a stderr tail worth printing in an error message: its last
 * `maxLines` non-empty lines, with runs of stack frames folded into one
 * `… N stack lines left out` line, and, when the first line that states an
 * error (`Error: Cannot find module …` above node's stack) falls before
 * that window, that line first and `…` after it. So the line that says
 * what went wrong is printed however long the trace under it is.
 *
 * @param text A stderr tail (any length).
 * @param maxLines Lines printed at most, besides the error line (≥ 1).
 * @returns The excerpt, lines joined with `\n`; "" for an empty tail.
 * @example
 * ```ts
 * import { tailExcerpt } from "./tail_buffer.ts";
 * const node = "Error: Cannot find module 'x'\n    at a (b:1:2)\n    at c (d:3:4)\n{\n}\nNode.js v20\n";
 * if (!tailExcerpt(node, 3).startsWith("Error: Cannot find module 'x'")) throw new Error();
 * ```
 */
export function tailExcerpt(text: string, maxLines = 10): string {
  const lines: string[] = [];
  let frames = 0;
  const flush = () => {
    if (frames) lines.push(`    … ${frames} stack line${frames === 1 ? "" : "s"} left out`);
    frames = 0;
  };
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") continue;
    if (STACK_FRAME.test(line)) {
      frames++;
      continue;
    }
    flush();
    lines.push(
      line.length > EXCERPT_LINE_CHARS ? `${line.slice(0, EXCERPT_LINE_CHARS)}…` : line,
    );
  }
  flush();
  const start = Math.max(0, lines.length - Math.max(1, maxLines));
  const window = lines.slice(start);
  const errorAt = lines.findIndex((line) => ERROR_LINE.test(line));
  if (errorAt >= 0 && errorAt < start) {
    return [lines[errorAt], ...(errorAt < start - 1 ? ["…"] : []), ...window].join("\n");
  }
  return window.join("\n");
}
