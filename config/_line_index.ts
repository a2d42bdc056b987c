/**
 * Line and column of an offset in a text, from a table of line starts built
 * in one pass. Private to config/.
 *
 * Building reads each character once; a lookup is a binary search of the
 * table, so locating k offsets in a text of n characters and L lines costs
 * n + k·⌈log₂(L + 1)⌉ steps, never k·n (the earlier lookup rescanned the text
 * from its start for every offset, which made loading a configuration of
 * 10,000 servers quadratic).
 *
 * @module
 */

/** A position in a text: 1-based line, 1-based column counted in UTF-16 units. */
export interface LineColumn {
  line: number;
  column: number;
}

/** The line starts of one text, and what reading and looking up cost so far. */
export class LineIndex {
  /** Offset of the first character of each line; `starts[0]` is 0. */
  readonly #starts: number[] = [0];
  /** Characters read to build the table: the text's length, each read once. */
  readonly scanned: number;
  /** Lookups answered so far. */
  lookups = 0;
  /** Binary-search steps taken by all lookups so far (each at most ⌈log₂(lines + 1)⌉). */
  steps = 0;

  /**
   * Builds the table of `text`'s line starts (a line ends at `\n`).
   *
   * @param text The whole text.
   */
  constructor(text: string) {
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
      this.#starts.push(at + 1);
    }
    this.scanned = text.length;
  }

  /** How many lines the text has (a text without `\n` has one). */
  get lines(): number {
    return this.#starts.length;
  }

  /**
   * The line and column of `offset`.
   *
   * @param offset A UTF-16 offset into the text; below 0 counts as 0.
   * @returns `{ line, column }`, both 1-based; an offset past the end is placed on the last line.
   */
  locate(offset: number): LineColumn {
    this.lookups++;
    const at = Math.max(0, offset);
    // The last line whose start is ≤ at.
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      this.steps++;
      const mid = (low + high + 1) >> 1;
      if (this.#starts[mid] <= at) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: at - this.#starts[low] + 1 };
  }
}
