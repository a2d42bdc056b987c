/**
 * Splitting tool names, query terms and descriptions into words for search.
 *
 * Source of the rule: spec 000, "Search": names and terms are split on `_`
 * and camelCase boundaries.
 *
 * @module
 */

import { stem } from "./stem.ts";

/**
 * Splits `text` into lowercase words: on every character that is not a
 * letter or digit (`_`, `-`, `.`, spaces, punctuation) and on camelCase
 * boundaries, where an upper-case run ends before a capitalised word
 * (`HTMLParser` → `html`, `parser`).
 *
 * @param text A tool name, query term or description.
 * @returns The words in order, lowercase, none empty.
 * @example
 * ```ts
 * import { splitWords } from "./words.ts";
 * if (splitWords("takeScreenshot").join(" ") !== "take screenshot") throw new Error();
 * ```
 */
export function splitWords(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/**
 * {@link splitWords} followed by {@link stem} on each word.
 *
 * @param text A tool name, query term or description.
 * @returns Stemmed lowercase words, in order.
 * @example
 * ```ts
 * import { stemmedWords } from "./words.ts";
 * if (stemmedWords("take_screenshots").join(" ") !== "take screenshot") throw new Error();
 * ```
 */
export function stemmedWords(text: string): string[] {
  return splitWords(text).map(stem);
}
