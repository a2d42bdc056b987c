/**
 * The text the fixture server tests/fixtures/servers/big_result.ts answers
 * `text {bytes}` with, for the test and the bench of large results (issue 9,
 * "Bounded, and not quadratic") to check every byte they received. It lives
 * here, below both, so bench/ imports nothing from tests/ (issue 26).
 *
 * @module
 */

/** Characters per line of {@link bigText}, its `\n` included. */
export const LINE_CHARS = 64;

/**
 * The text `text {bytes}` answers: numbered lines of {@link LINE_CHARS}
 * characters of ASCII (`000001 ` then letters, then `\n`; the number wraps
 * after 999999), the last one cut to fit. The same `bytes` always gives the
 * same text.
 *
 * @param bytes Its length in bytes (= characters: it is ASCII).
 *
 * @example
 * ```ts
 * import { bigText } from "./big_text.ts";
 * if (bigText(70) !== "000001 abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123\n000002") {
 *   throw new Error();
 * }
 * ```
 */
export function bigText(bytes: number): string {
  const filler = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const lines: string[] = [];
  for (let n = 1, length = 0; length < bytes; n++, length += LINE_CHARS) {
    const number = String(n % 1_000_000).padStart(6, "0");
    lines.push(`${number} ${filler.slice(0, LINE_CHARS - 8)}\n`);
  }
  return lines.join("").slice(0, bytes);
}
