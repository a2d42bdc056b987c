/**
 * Small text operations on TypeScript declarations: finding brackets outside
 * comments and strings, splitting an object type's members, indenting, and
 * JSDoc. discovery/_ts_model.ts parses and prints with them, which replaces
 * running prettier, whose load costs more than generating the types.
 *
 * @module
 */

/** Marks each character: true when it is code, false inside a comment or string literal. */
export function codeMask(text: string): boolean[] {
  const mask = new Array<boolean>(text.length).fill(true);
  scanLiterals(text, (_kind, start, end) => {
    for (let k = start; k < end; k++) mask[k] = false;
  });
  return mask;
}

/**
 * The indices just past the end of each comment (`/* … *\/` and `// …`), so a
 * `*\/` inside a string (a property named `"*\/"`) is not taken for one.
 */
export function commentEnds(text: string): Set<number> {
  const ends = new Set<number>();
  scanLiterals(text, (kind, _start, end) => {
    if (kind === "comment") ends.add(end);
  });
  return ends;
}

/** Calls `found` for each comment and string literal of `text`, in order: `[start, end)`. */
function scanLiterals(
  text: string,
  found: (kind: "comment" | "string", start: number, end: number) => void,
): void {
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    let end = -1;
    let kind: "comment" | "string" = "comment";
    if (c === "/" && next === "*") {
      const close = text.indexOf("*/", i + 2);
      end = close < 0 ? text.length : close + 2;
    } else if (c === "/" && next === "/") {
      const close = text.indexOf("\n", i);
      end = close < 0 ? text.length : close;
    } else if (c === '"' || c === "'" || c === "`") {
      kind = "string";
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      end = Math.min(j + 1, text.length);
    }
    if (end < 0) {
      i++;
      continue;
    }
    found(kind, i, end);
    i = end;
  }
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
  const comments = commentEnds(body);
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
      if (comments.has(i + 1) && body.startsWith("*/", i - 1) && depth === 0) flush(i + 1);
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
