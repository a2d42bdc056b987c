/**
 * A word as a POSIX shell reads it back, for the command lines mcpx prints
 * for a person to read or paste (`mcpx trust '/p q/.mcp.json'`, what a server
 * would run: config/runs_of.ts).
 *
 * @module
 */

/**
 * Quotes `word` for a POSIX shell: bare when it holds only safe characters,
 * else single-quoted with each `'` written as `'\''`.
 *
 * @param word Any text.
 * @returns The word as a shell reads it back.
 * @example
 * ```ts
 * import { shellWord } from "./shell_word.ts";
 * if (shellWord("a/b.js") !== "a/b.js" || shellWord("it's") !== `'it'\\''s'`) throw new Error();
 * ```
 */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
