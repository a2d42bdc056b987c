/**
 * A light, conservative English suffix stemmer for tool search.
 *
 * Source of the rule: spec 000, "Search": names and terms are folded through
 * a light suffix stemmer, so `screenshots` finds `take_screenshot`. It only
 * has to make a query word and a name word meet; it never has to produce a
 * dictionary word, and it prefers leaving a word alone to mangling it.
 *
 * @module
 */

const VOWEL = /[aeiouy]/;

/** Drops one letter of a final doubled consonant (`runn` → `run`), except `ll`, `ss`, `zz`. */
function undouble(word: string): string {
  const n = word.length;
  if (
    n >= 3 && word[n - 1] === word[n - 2] && !/[lsz]/.test(word[n - 1]) && !VOWEL.test(word[n - 1])
  ) {
    return word.slice(0, -1);
  }
  return word;
}

/**
 * Strips one inflectional suffix from a lowercase word:
 *
 * - plurals: `-ies` → `-y` (`queries` → `query`), `-sses` → `-ss`,
 *   `-xes`/`-ches`/`-shes` → drop `-es`, other `-s` dropped, except after
 *   `s`, `u` or `i` (`class`, `status`, `analysis` stay);
 * - `-ing` and `-ed` when at least four letters remain, undoubling a final
 *   consonant (`clicking` → `click`, `running` → `run`; `string`, `need` stay);
 * - `-ly` when at least five letters remain (`quickly` → `quick`).
 *
 * Words of three letters or fewer are returned unchanged.
 *
 * @param word One lowercase word (see `splitWords`).
 * @returns The stem.
 * @example
 * ```ts
 * import { stem } from "./stem.ts";
 * if (stem("screenshots") !== "screenshot" || stem("status") !== "status") throw new Error();
 * ```
 */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies") && word.length > 4) return word.slice(0, -3) + "y";
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (/(x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return /[siu]s$/.test(word) ? word : word.slice(0, -1);
  if (word.endsWith("ing") && word.length - 3 >= 4 && VOWEL.test(word.slice(0, -3))) {
    return undouble(word.slice(0, -3));
  }
  if (word.endsWith("ed") && word.length - 2 >= 4 && !word.endsWith("eed")) {
    return undouble(word.slice(0, -2));
  }
  if (word.endsWith("ly") && word.length - 2 >= 5) return word.slice(0, -2);
  return word;
}
