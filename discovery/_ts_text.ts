/**
 * Small text operations on generated TypeScript declarations: finding
 * brackets outside comments and strings, re-indenting, adding member
 * semicolons, compacting one-line JSDoc. They replace running prettier,
 * whose load costs more than generating the types.
 *
 * @module
 */

/** Marks each character: true when it is code, false inside a comment or string literal. */
export function codeMask(text: string): boolean[] {
  const mask = new Array<boolean>(text.length).fill(true);
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    let end = -1;
    if (c === "/" && next === "*") {
      const close = text.indexOf("*/", i + 2);
      end = close < 0 ? text.length : close + 2;
    } else if (c === "/" && next === "/") {
      const close = text.indexOf("\n", i);
      end = close < 0 ? text.length : close;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      end = Math.min(j + 1, text.length);
    }
    if (end < 0) {
      i++;
      continue;
    }
    for (let k = i; k < end; k++) mask[k] = false;
    i = end;
  }
  return mask;
}

const OPEN = "{([";
const CLOSE = "})]";

/**
 * The index of the bracket closing the one at `open`, skipping comments and
 * strings, or -1.
 */
export function matchBracket(text: string, open: number, mask = codeMask(text)): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (!mask[i]) continue;
    if (OPEN.includes(text[i])) depth++;
    else if (CLOSE.includes(text[i]) && --depth === 0) return i;
  }
  return -1;
}

/**
 * Splits the body of an object type (the text between its braces) into its
 * members, each with the comments before it: pieces separated by newlines,
 * `;` or `,` at bracket depth 0 outside comments and strings.
 */
export function splitMembers(body: string): string[] {
  const mask = codeMask(body);
  const members: string[] = [];
  let depth = 0;
  let start = 0;
  let pendingComment = "";
  const flush = (end: number) => {
    const piece = body.slice(start, end).trim();
    start = end + 1;
    if (piece.length === 0) return;
    if (/^\/\*[\s\S]*\*\/$/.test(piece) || piece.startsWith("//")) {
      pendingComment += piece + "\n";
      return;
    }
    members.push(pendingComment + piece);
    pendingComment = "";
  };
  for (let i = 0; i < body.length; i++) {
    if (!mask[i]) {
      // A comment ending is a boundary too, so comments stay separate pieces.
      if (body[i] === "/" && body[i - 1] === "*" && depth === 0) flush(i + 1);
      continue;
    }
    const c = body[i];
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth--;
    else if (depth === 0 && (c === "\n" || c === ";" || c === ",")) flush(i);
  }
  flush(body.length);
  return members;
}

/**
 * Re-indents declarations by bracket depth, `unit` per level, trims trailing
 * spaces, drops blank lines inside brackets, turns one-line JSDoc into
 * `/** text *\/`, and ends each member line of an object type with `;`.
 */
export function reindent(text: string, unit = "  "): string {
  const compact = text.replace(/\{\n[ \t]*\n?[ \t]*\}/g, "{}").replace(
    /\/\*\*\n[ \t]*\* ?([^\n]*)\n[ \t]*\*\//g,
    (_, line: string) => `/** ${line.trim()} */`,
  );
  const mask = codeMask(compact);
  const lines: string[] = [];
  /** Open brackets, each with the level of the line that opened it. */
  const stack: { char: string; level: number }[] = [];
  let offset = 0;
  for (const raw of compact.split("\n")) {
    const start = offset;
    offset += raw.length + 1;
    const trimmed = raw.trim();
    const indentAt = start + raw.length - raw.trimStart().length;
    const inComment = !mask[indentAt] &&
      (trimmed.startsWith("*") || trimmed.startsWith("/*") || trimmed.startsWith("//"));
    if (trimmed.length === 0) {
      if (stack.length === 0 && lines.length > 0 && lines.at(-1) !== "") lines.push("");
      continue;
    }
    let level = stack.length > 0 ? stack.at(-1)!.level + 1 : 0;
    let leading = true;
    for (let i = indentAt; i < start + raw.length; i++) {
      if (!mask[i]) {
        leading = false;
        continue;
      }
      const c = compact[i];
      if (OPEN.includes(c)) {
        stack.push({ char: c, level: -1 });
        leading = false;
      } else if (CLOSE.includes(c)) {
        const popped = stack.pop();
        if (leading && popped) level = popped.level;
      } else if (c !== " ") {
        leading = false;
      }
    }
    for (const open of stack) if (open.level < 0) open.level = level;
    let line = trimmed;
    if (inComment && trimmed.startsWith("*")) line = ` ${trimmed}`;
    const lastIsCode = mask[start + raw.trimEnd().length - 1];
    const endsMember = lastIsCode ? !"{([|&,;:=".includes(line.at(-1)!) : !line.endsWith("*/");
    if (!inComment && stack.at(-1)?.char === "{" && endsMember) line += ";";
    lines.push(unit.repeat(level) + line);
  }
  while (lines.at(-1) === "") lines.pop();
  return lines.join("\n");
}

/** Prefixes every non-empty line with `prefix`. */
export function indentLines(text: string, prefix: string): string {
  return text.split("\n").map((line) => (line.length > 0 ? prefix + line : line)).join("\n");
}

/** Text safe inside a JSDoc block: `*\/` is broken so the comment cannot end early. */
export function jsdocSafe(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}

/** A JSDoc block from lines (empty when there are none): one line compact, more as a block. */
export function jsdoc(lines: string[]): string {
  const body = lines.flatMap((l) => jsdocSafe(l).split("\n")).map((l) => l.trimEnd());
  while (body.length > 0 && body.at(-1) === "") body.pop();
  if (body.length === 0) return "";
  if (body.length === 1) return `/** ${body[0]} */\n`;
  return `/**\n${body.map((l) => (l ? ` * ${l}` : " *")).join("\n")}\n */\n`;
}
