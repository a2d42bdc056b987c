/**
 * Cutting a text to fit a table cell or a document field.
 *
 * @module
 */

/**
 * Shortens `text` to `max` characters, ending in `…` when cut; runs of
 * whitespace (newlines included) become one space.
 *
 * @param text Any text.
 * @param max Most characters of the result (≥ 1 for a cut to show `…`).
 * @returns The text on one line, at most `max` characters.
 * @example
 * ```ts
 * import { truncate } from "./truncate.ts";
 * if (truncate("read\na file", 20) !== "read a file") throw new Error();
 * if (truncate("abcdef", 4) !== "abc…") throw new Error();
 * ```
 */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}
