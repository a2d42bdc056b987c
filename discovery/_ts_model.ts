/**
 * A small model of the TypeScript declarations mcpx prints for tools, and
 * its parser and printer. The model is what lets the renderer lay a
 * declaration out compactly (short object types on one line, one-line
 * JSDoc) and share what repeats between tools (discovery/_ts_share.ts).
 *
 * The parser reads the subset `json-schema-to-typescript` emits and mcpx
 * itself prints: `interface` and `type` statements, JSDoc comments, and
 * `function fn(args: T): Promise<R>;`. A type expression is kept as text
 * with its object literal types (`{ … }`) parsed out, since only those are
 * ever laid out, named or shared; unions, arrays, tuples and literals stay
 * text.
 *
 * @module
 */

import { codeMask, jsdocSafe, matchBracket, splitMembers } from "./_ts_text.ts";

/** A type expression: text with the object literal types in it parsed out. */
export type TypeExpr = Part[];
/** A piece of a type expression. */
export type Part = string | ObjectType;

/** An object literal type, `{ a: string; b?: number }`. */
export interface ObjectType {
  members: Member[];
}

/** One member of an object type, with its JSDoc. */
export interface Member {
  /** JSDoc lines, without comment markers; empty when undocumented. */
  doc: string[];
  /** As written: `name`, `name?`, `"x-y"`, `[k: string]`. */
  key: string;
  type: TypeExpr;
}

/** A named type: `interface Name { … }` (type is one object) or `type Name = …;`. */
export interface NamedType {
  doc: string[];
  kind: "interface" | "type";
  name: string;
  type: TypeExpr;
}

/** One tool's declaration: its named types, its JSDoc and its function. */
export interface Declaration {
  named: NamedType[];
  doc: string[];
  fn: string;
  args: TypeExpr;
  /** The type inside `Promise<…>`. */
  result: TypeExpr;
}

/**
 * A deep copy of a declaration, for layouts that rewrite one in place
 * (discovery/_ts_share.ts). A declaration is strings, arrays and plain
 * objects only, so a JSON round trip copies it whole; `structuredClone`
 * would cost a CLI ~1–3 ms on its first use.
 */
export function copyDeclaration(decl: Declaration): Declaration {
  return JSON.parse(JSON.stringify(decl));
}

/** Lines are laid out to fit this many columns where they can (deno fmt's width). */
export const WIDTH = 100;
const INDENT = "  ";

// ---------------------------------------------------------------- parsing

/** The lines of a comment (`/** … *\/` or `// …`), markers removed, outer blank lines dropped. */
export function commentLines(comment: string): string[] {
  if (comment.startsWith("//")) return [comment.slice(2).trim()];
  const inner = comment.replace(/^\/\*\*?/, "").replace(/\*\/$/, "");
  const lines = inner.split("\n").map((l, i) =>
    (i === 0 ? l.trim() : l.replace(/^\s*\*(?: |$)/, "")).trimEnd()
  );
  while (lines.length > 0 && lines[0].trim() === "") lines.shift();
  while (lines.length > 0 && lines.at(-1)!.trim() === "") lines.pop();
  return lines.length === 1 ? [lines[0].trim()] : lines;
}

/** Splits leading comments off `text`: their JSDoc lines and the code after them. */
function leadingDoc(text: string): { doc: string[]; rest: string } {
  let rest = text.trimStart();
  let doc: string[] = [];
  for (;;) {
    if (rest.startsWith("/*")) {
      const end = rest.indexOf("*/", 2);
      if (end < 0) throw new SyntaxError("unterminated comment");
      const comment = rest.slice(0, end + 2);
      if (comment.startsWith("/**")) doc = [...doc, ...commentLines(comment)];
      rest = rest.slice(end + 2).trimStart();
    } else if (rest.startsWith("//")) {
      const end = rest.indexOf("\n");
      rest = end < 0 ? "" : rest.slice(end + 1).trimStart();
    } else {
      return { doc, rest };
    }
  }
}

/** The index of the first code `char` at bracket depth 0 in `text`, or -1. */
function topLevelIndex(text: string, char: string, from = 0, mask = codeMask(text)): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (!mask[i]) continue;
    const c = text[i];
    if (c === char && depth === 0) return i;
    if ("{([".includes(c)) depth++;
    else if ("})]".includes(c)) depth--;
  }
  return -1;
}

/**
 * Parses a type expression: object literal types become {@link ObjectType}s,
 * everything else stays text with whitespace runs outside strings collapsed.
 *
 * @throws {SyntaxError} When a bracket is unbalanced.
 */
export function parseType(text: string): TypeExpr {
  const mask = codeMask(text);
  const parts: Part[] = [];
  let buffer = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (mask[i] && c === "{") {
      const close = matchBracket(text, i, mask);
      if (close < 0) throw new SyntaxError(`unbalanced "{" in ${JSON.stringify(text)}`);
      if (buffer) parts.push(buffer);
      buffer = "";
      parts.push({ members: parseMembers(text.slice(i + 1, close)) });
      i = close;
    } else if (mask[i] && /\s/.test(c)) {
      if (!buffer.endsWith(" ")) buffer += " ";
    } else {
      buffer += c;
    }
  }
  if (buffer) parts.push(buffer);
  return trimExpr(parts);
}

/** Drops leading and trailing spaces of the expression's outer text. */
function trimExpr(parts: Part[]): TypeExpr {
  const out = [...parts];
  if (typeof out[0] === "string") out[0] = out[0].trimStart();
  const last = out.length - 1;
  if (typeof out[last] === "string") out[last] = (out[last] as string).trimEnd();
  return out.filter((p) => p !== "");
}

/** Parses the body of an object type (the text between its braces). */
export function parseMembers(body: string): Member[] {
  return splitMembers(body).map((piece) => {
    const { doc, rest } = leadingDoc(piece);
    const colon = topLevelIndex(rest, ":");
    if (colon < 0) throw new SyntaxError(`a member without a type: ${JSON.stringify(rest)}`);
    return { doc, key: rest.slice(0, colon).trim(), type: parseType(rest.slice(colon + 1)) };
  });
}

/** What {@link parseStatements} finds. */
export interface Statements {
  named: NamedType[];
  functions: { doc: string[]; fn: string; args: TypeExpr; result: TypeExpr }[];
}

const INTERFACE = /^(?:export\s+)?(?:declare\s+)?interface\s+([A-Za-z_$][\w$]*)\s*\{/;
const TYPE_ALIAS = /^(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_$][\w$]*)\s*=/;
const FUNCTION = /^(?:export\s+)?(?:declare\s+)?function\s+([A-Za-z_$][\w$]*)\s*\(/;

/**
 * Parses declaration text: `interface`/`type` statements and
 * `function fn(args: T): Promise<R>;` statements, each with the JSDoc before
 * it. Other comments are skipped.
 *
 * @throws {SyntaxError} On any other statement, or unbalanced brackets.
 */
export function parseStatements(text: string): Statements {
  const out: Statements = { named: [], functions: [] };
  let rest = text;
  for (;;) {
    const lead = leadingDoc(rest);
    rest = lead.rest;
    if (rest.length === 0) return out;
    const mask = codeMask(rest);
    let m: RegExpExecArray | null;
    let end: number;
    if ((m = INTERFACE.exec(rest))) {
      const open = m[0].length - 1;
      end = matchBracket(rest, open, mask);
      if (end < 0) throw new SyntaxError(`unbalanced interface ${m[1]}`);
      out.named.push({
        doc: lead.doc,
        kind: "interface",
        name: m[1],
        type: [{ members: parseMembers(rest.slice(open + 1, end)) }],
      });
    } else if ((m = TYPE_ALIAS.exec(rest))) {
      end = statementEnd(rest, m[0].length, mask);
      const type = parseType(rest.slice(m[0].length, end));
      out.named.push({ doc: lead.doc, kind: "type", name: m[1], type });
    } else if ((m = FUNCTION.exec(rest))) {
      const open = m[0].length - 1;
      const close = matchBracket(rest, open, mask);
      if (close < 0) throw new SyntaxError(`unbalanced parameters of ${m[1]}`);
      const param = rest.slice(open + 1, close);
      const colon = topLevelIndex(param, ":");
      if (colon < 0) throw new SyntaxError(`untyped parameter of ${m[1]}`);
      end = statementEnd(rest, close + 1, mask);
      const returns = rest.slice(close + 1, end).trim().replace(/^:\s*/, "");
      const promise = /^Promise\s*<([\s\S]*)>$/.exec(returns);
      if (!promise) throw new SyntaxError(`${m[1]} does not return a Promise: ${returns}`);
      out.functions.push({
        doc: lead.doc,
        fn: m[1],
        args: parseType(param.slice(colon + 1)),
        result: parseType(promise[1]),
      });
    } else {
      throw new SyntaxError(`unexpected declaration text: ${JSON.stringify(rest.slice(0, 60))}`);
    }
    rest = rest.slice(end + 1);
  }
}

/**
 * Where a statement starting at `from` ends: a `;` at depth 0, or a line
 * break at depth 0 that no `|`/`&` continues, or the end of the text.
 */
function statementEnd(text: string, from: number, mask: boolean[]): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (!mask[i]) continue;
    const c = text[i];
    if ("{([".includes(c)) depth++;
    else if ("})]".includes(c)) depth--;
    else if (depth === 0 && c === ";") return i;
    else if (depth === 0 && c === "\n") {
      const next = text.slice(i + 1).trimStart();
      if (!/^[|&]/.test(next) && text.slice(from, i).trim() !== "") return i;
    }
  }
  return text.length;
}

/**
 * Parses one tool's declaration: named types, then the JSDoc and function.
 *
 * @throws {SyntaxError} When the text is not exactly that.
 */
export function parseDeclaration(text: string): Declaration {
  const { named, functions } = parseStatements(text);
  if (functions.length !== 1) {
    throw new SyntaxError(`expected one function, found ${functions.length}`);
  }
  return { named, ...functions[0] };
}

// ---------------------------------------------------------------- printing

/** JSDoc lines as one line, or null when they must stay a block (a `@tag` line). */
function oneLineDoc(doc: string[]): string | null {
  const lines = doc.map((l) => jsdocSafe(l.trim())).filter((l) => l.length > 0);
  if (lines.some((l) => l.startsWith("@"))) return null;
  return lines.join(" ");
}

/**
 * A JSDoc comment at `level`: prose lines joined into one `/** … *\/` line
 * when `join`, else one line per line; a block when lines must stay apart.
 */
export function printDoc(doc: string[], level: number, join = true): string {
  if (doc.length === 0) return "";
  const pad = INDENT.repeat(level);
  const single = join ? oneLineDoc(doc) : doc.length === 1 ? jsdocSafe(doc[0].trim()) : null;
  if (single !== null) return single ? `${pad}/** ${single} */\n` : "";
  const body = doc.map((l) => (l.trim() ? `${pad} * ${jsdocSafe(l)}` : `${pad} *`)).join("\n");
  return `${pad}/**\n${body}\n${pad} */\n`;
}

/** The expression's text on one line, however long. */
export function flat(expr: TypeExpr): string {
  return printType(expr, 0, 0, Infinity);
}

/**
 * Prints a type expression whose first character sits at `column` of a line
 * indented `level` times. An object type goes on one line when that keeps
 * the line within `width` (counting `reserve` characters that follow it),
 * else one member per line.
 */
export function printType(
  expr: TypeExpr,
  level: number,
  column: number,
  width = WIDTH,
  reserve = 0,
): string {
  let text = "";
  let col = column;
  for (const [i, part] of expr.entries()) {
    const tail = i === expr.length - 1 ? reserve : 0;
    const piece = typeof part === "string" ? part : printObject(part, level, col, width, tail);
    text += piece;
    const nl = piece.lastIndexOf("\n");
    col = nl < 0 ? col + piece.length : piece.length - nl - 1;
  }
  return text;
}

/** A member's type without parentheses around the whole of it (`("a" | "b")` → `"a" | "b"`). */
function bare(expr: TypeExpr): TypeExpr {
  const first = expr[0];
  const last = expr.at(-1);
  if (typeof first !== "string" || typeof last !== "string" || !first.startsWith("(")) return expr;
  if (!last.endsWith(")") || !wrapsWhole(expr)) return expr;
  if (expr.length === 1) return [first.slice(1, -1)];
  return trimExpr([first.slice(1), ...expr.slice(1, -1), last.slice(0, -1)]);
}

/**
 * True when the `(` opening the expression closes at its very end. Object
 * types are balanced inside, so only the text parts are scanned (string
 * literals skipped).
 */
function wrapsWhole(expr: TypeExpr): boolean {
  let depth = 0;
  for (const [p, part] of expr.entries()) {
    if (typeof part !== "string") continue;
    const mask = codeMask(part);
    for (let i = 0; i < part.length; i++) {
      if (!mask[i]) continue;
      if ("([{".includes(part[i])) depth++;
      else if (")]}".includes(part[i]) && --depth === 0) {
        return p === expr.length - 1 && i === part.length - 1;
      }
    }
  }
  return false;
}

function printObject(
  obj: ObjectType,
  level: number,
  column: number,
  width: number,
  reserve: number,
): string {
  if (obj.members.length === 0) return "{}";
  const docs = obj.members.map((m) => oneLineDoc(m.doc));
  if (docs.every((d) => d !== null)) {
    const members = obj.members.map((m, i) =>
      `${docs[i] ? `/** ${docs[i]} */ ` : ""}${m.key}: ${flat(bare(m.type))}`
    );
    const line = `{ ${members.join("; ")} }`;
    if (column + line.length + reserve <= width) return line;
  }
  const pad = INDENT.repeat(level + 1);
  const lines = obj.members.map((m) => {
    const head = `${pad}${m.key}: `;
    const type = printType(bare(m.type), level + 1, head.length, width, 1);
    return `${printDoc(m.doc, level + 1)}${head}${type};`;
  });
  return `{\n${lines.join("\n")}\n${INDENT.repeat(level)}}`;
}

/** A named type at `level`, with its JSDoc. */
export function printNamed(named: NamedType, level = 0): string {
  const pad = INDENT.repeat(level);
  const doc = printDoc(named.doc, level);
  if (named.kind === "interface") {
    const head = `${pad}interface ${named.name} `;
    return `${doc}${head}${printType(named.type, level, head.length)}`;
  }
  const head = `${pad}type ${named.name} = `;
  return `${doc}${head}${printType(named.type, level, head.length, WIDTH, 1)};`;
}

/**
 * A tool's JSDoc and function at `level`, without its named types:
 * `function fn(args: T): Promise<R>;`, laid out to fit {@link WIDTH}.
 */
export function printFunction(
  d: Pick<Declaration, "doc" | "fn" | "args" | "result">,
  level = 0,
): string {
  const pad = INDENT.repeat(level);
  const head = `${pad}function ${d.fn}(args: `;
  const argsType = bare(d.args);
  const resultType = bare(d.result);
  const resultFlat = flat(resultType);
  const mid = "): Promise<";
  // The whole result fits after the arguments' closing line: lay the arguments out with
  // room for it; when they still take one line, so does the signature.
  const afterClose = pad.length + 1 + mid.length + resultFlat.length + 2;
  let args = printType(argsType, level, head.length, WIDTH, mid.length + resultFlat.length + 2);
  if (args.includes("\n") && afterClose > WIDTH) {
    // The result breaks anyway: keep short arguments on the first line.
    args = printType(argsType, level, head.length, WIDTH, mid.length + 1);
  }
  const lastLine = args.slice(args.lastIndexOf("\n") + 1);
  const column = (args.includes("\n") ? lastLine.length : head.length + args.length) + mid.length;
  const result = printType(resultType, level, column, WIDTH, 2);
  return `${printDoc(d.doc, level, false)}${head}${args}${mid}${result}>;`;
}

/** A whole declaration at level 0: named types, then JSDoc and function. */
export function printDeclaration(d: Declaration): string {
  return [...d.named.map((n) => printNamed(n)), printFunction(d)].join("\n");
}
