/**
 * Whole numbers as people read them, without `Intl`: `toLocaleString` loads
 * ICU's locale data on first use, which costs a CLI ~20 ms of CPU (measured
 * on `mcpx search`, whose last line says how many tokens `mcpx types` costs).
 *
 * @module
 */

/**
 * A whole number with a comma between each group of three digits, as
 * `toLocaleString("en-US")` writes it: `1234567` → `"1,234,567"`, `-1200` →
 * `"-1,200"`. A number that is not a safe integer (a fraction, NaN, ∞) is
 * written as `String()` writes it.
 *
 * @example
 * ```ts
 * import { groupedDigits } from "./number_text.ts";
 * if (groupedDigits(7200) !== "7,200") throw new Error();
 * ```
 */
export function groupedDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  let out = "";
  for (let end = digits.length; end > 0; end -= 3) {
    const group = digits.slice(Math.max(0, end - 3), end);
    out = out ? `${group},${out}` : group;
  }
  return n < 0 ? `-${out}` : out;
}
