/**
 * `key=value` words from a command line (a prompt's arguments, a resource
 * template's variables) as a record of strings.
 *
 * @module
 */

import { UsageError } from "./errors.ts";

/**
 * Reads `key=value` words into a record (a value may hold `=`).
 *
 * @param words e.g. `["city=Paris", "note=a=b"]`.
 * @param what What they are for, in errors (`prompt arguments`).
 * @throws {UsageError} for a word without `=` or with an empty key, or a key given twice.
 */
export function parseKeyValues(words: readonly string[], what: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const word of words) {
    const eq = word.indexOf("=");
    if (eq <= 0) {
      throw new UsageError(`${what} are key=value, got "${word}"; e.g. city=Paris`);
    }
    const key = word.slice(0, eq);
    if (Object.hasOwn(out, key)) throw new UsageError(`${what}: "${key}" is given twice`);
    out[key] = word.slice(eq + 1);
  }
  return { ...out };
}
