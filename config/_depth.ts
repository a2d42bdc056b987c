/**
 * A bound on how deeply a configuration nests, checked before the JSONC
 * parser sees the text: the parser and everything that walks its result
 * recurse once per level, so a document nested tens of thousands of levels
 * deep would overflow the stack ("Maximum call stack size exceeded") instead
 * of getting an error about the file (issue 9, "Configuration edge cases").
 * Private to config/.
 *
 * @module
 */

import { ConfigError } from "../core/errors.ts";

/**
 * The deepest nesting of objects and arrays a configuration may have. A
 * configuration needs about six levels (`mcpServers` → server → `mcpx` →
 * `profiles` → list); 64 leaves room for anything a person writes.
 */
export const MAX_CONFIG_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const NEWLINE = 0x0a;

/**
 * Checks that `text` nests objects and arrays at most {@link MAX_CONFIG_DEPTH}
 * deep, reading strings and comments as JSONC does (brackets inside them do
 * not count). One pass, no recursion; unbalanced brackets are left for the
 * parser to report.
 *
 * @param text The configuration's text.
 * @param file The file, for the message (null → `<input>`).
 * @throws {ConfigError} naming the file, the line and column where the limit
 *   is passed, and the limit.
 * @example
 * ```ts
 * import { checkNesting } from "./_depth.ts";
 * checkNesting('{ "mcpServers": { "a": { "args": ["[", "{"] } } }', null);
 * ```
 */
export function checkNesting(text: string, file: string | null): void {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE) {
      line++;
      lineStart = i + 1;
    } else if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE || s === NEWLINE) break;
      }
      if (text.charCodeAt(i) === NEWLINE) i--; // an unclosed string: the newline still counts
    } else if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      while (i + 1 < text.length && text.charCodeAt(i + 1) !== NEWLINE) i++;
    } else if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      for (
        i += 2;
        i < text.length && !(text.charCodeAt(i) === STAR && text.charCodeAt(i + 1) === SLASH);
        i++
      ) {
        if (text.charCodeAt(i) === NEWLINE) {
          line++;
          lineStart = i + 1;
        }
      }
      i++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > MAX_CONFIG_DEPTH) {
        throw new ConfigError(
          file,
          "",
          `objects and arrays nest more than ${MAX_CONFIG_DEPTH} levels deep at ${
            file ?? "<input>"
          }:${line}:${i - lineStart + 1}; a configuration needs a few levels: look there for ` +
            `a value pasted by mistake or brackets that do not close`,
        );
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    }
  }
}
