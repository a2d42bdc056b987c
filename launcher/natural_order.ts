/**
 * Natural ordering of file names, so numbered fragments sort by their
 * numbers (`9-a.ts` before `10-b.ts`) rather than by their bytes (spec 000,
 * "Source that can be a file").
 *
 * @module
 */

/**
 * Compares two strings in natural order: runs of ASCII digits compare by
 * numeric value (any length, no precision loss), everything else by UTF-16
 * code unit. When two names differ only in leading zeros (`7` and `007`) the
 * one with fewer zeros comes first; the final tie-break is plain code-unit
 * order, so the result is a total order and sorting is deterministic.
 *
 * @param a First string.
 * @param b Second string.
 * @returns A negative number when `a` sorts first, positive when `b` does, 0 when equal.
 * @example
 * ```ts
 * import { naturalCompare } from "./natural_order.ts";
 * const names = ["10-y.ts", "9-x.ts", "1-a.ts"].sort(naturalCompare);
 * if (names.join() !== "1-a.ts,9-x.ts,10-y.ts") throw new Error(names.join());
 * ```
 */
export function naturalCompare(a: string, b: string): number {
  let i = 0;
  let j = 0;
  let zeros = 0;
  while (i < a.length && j < b.length) {
    if (isDigit(a, i) && isDigit(b, j)) {
      const x = digitRun(a, i);
      const y = digitRun(b, j);
      i += x.length;
      j += y.length;
      const xs = x.replace(/^0+(?=\d)/, "");
      const ys = y.replace(/^0+(?=\d)/, "");
      if (xs.length !== ys.length) return xs.length - ys.length;
      if (xs !== ys) return xs < ys ? -1 : 1;
      if (zeros === 0) zeros = x.length - y.length;
    } else {
      if (a[i] !== b[j]) return a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
  }
  if (i < a.length || j < b.length) return (a.length - i) - (b.length - j);
  if (zeros !== 0) return zeros;
  return a === b ? 0 : a < b ? -1 : 1;
}

function isDigit(s: string, at: number): boolean {
  const c = s.charCodeAt(at);
  return c >= 48 && c <= 57;
}

function digitRun(s: string, from: number): string {
  let end = from;
  while (end < s.length && isDigit(s, end)) end++;
  return s.slice(from, end);
}
