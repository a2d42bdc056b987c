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
 * Folds case and diacritics, the same on both sides of a comparison: the text
 * in compatibility decomposition (NFKD) with combining marks removed, then
 * lowercased, so `Héllo`, `HELLO` and `hello` meet, and so do `ﬁle` and `file`.
 *
 * @param text Any text: a name, a query term, a description.
 * @returns The folded text.
 * @example
 * ```ts
 * import { fold } from "./words.ts";
 * if (fold("Héllo Wörld") !== "hello world") throw new Error();
 * ```
 */
export function fold(text: string): string {
  // ASCII has nothing to decompose or strip: most names and descriptions take this path,
  // and search folds every tool's names on every run.
  if (!NOT_PLAIN_ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
}

/** A character other than printable ASCII, tab, line feed and carriage return. */
const NOT_PLAIN_ASCII = /[^\t\n\r -~]/;

/**
 * Splits `text` into lowercase words: on every character that is not a
 * letter or digit (`_`, `-`, `.`, spaces, punctuation) and on camelCase
 * boundaries, where an upper-case run ends before a capitalised word
 * (`HTMLParser` → `html`, `parser`); each word is {@link fold}ed (`Héllo` →
 * `hello`).
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
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((w) => w.length > 0)
    .map(fold)
    .filter((w) => w.length > 0);
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
