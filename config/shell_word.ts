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

/**
 * Splits a command line into argv the way a POSIX shell splits words, and
 * nothing more: blanks separate words; `'…'` keeps everything literally;
 * `"…"` keeps everything but `\` before `"`, `\`, `$` or `` ` ``; a `\`
 * outside quotes keeps the next character. Nothing is expanded (`$VAR`,
 * `~`, globs) and no operator is special (`;`, `|`, `&&` are ordinary
 * characters), since the words are run directly, never through a shell.
 *
 * @param line A command line, e.g. `npx -y "@scope/pkg" stdio`.
 * @returns Its words, e.g. `["npx", "-y", "@scope/pkg", "stdio"]`; empty for a blank line.
 * @throws {SyntaxError} For an unclosed quote or a `\` ending the line, naming it.
 * @example
 * ```ts
 * import { splitShellWords } from "./shell_word.ts";
 * const words = splitShellWords(`node "my server.js" --name='a b' x\\ y`);
 * if (words.join("|") !== "node|my server.js|--name=a b|x y") throw new Error(words.join("|"));
 * ```
 */
export function splitShellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === " " || c === "\t" || c === "\n") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "\\") {
      if (i + 1 >= line.length) {
        throw new SyntaxError(`${JSON.stringify(line)} ends with a lone \\; remove it or quote it`);
      }
      word += line[++i];
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw unclosed(line, "'", i);
      word += line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length && `"\\$\``.includes(line[j + 1])) j++;
        word += line[j];
      }
      if (j >= line.length) throw unclosed(line, '"', i);
      i = j;
    } else {
      word += c;
    }
  }
  if (inWord) words.push(word);
  return words;
}

function unclosed(line: string, quote: string, at: number): SyntaxError {
  return new SyntaxError(
    `${JSON.stringify(line)} opens a ${quote} at character ${at + 1} and never closes it; ` +
      `close the quote`,
  );
}
