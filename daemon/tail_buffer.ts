/**
 * A bounded text buffer that keeps only the most recent characters: a
 * server's stderr tail for `mcpx status` and start-failure messages.
 *
 * @module
 */

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
