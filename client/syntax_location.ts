/**
 * Where a module failed to parse, as data, from what bun and node attach to
 * the error (deno puts the place and an excerpt in the message itself). Part
 * of the generated client: client/bundle.ts inlines it, so it imports nothing
 * and runs unchanged under deno, bun and node (issue 8: a syntax error keeps
 * the runtime's `file:line:col` and excerpt under every runtime).
 *
 * @module
 */

/** The place of a syntax error. */
export interface SyntaxLocation {
  /** The file as the runtime named it: a path or a `file:` URL. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based; absent when the runtime did not mark one. */
  column?: number;
  /** The source line, as the runtime quoted it; absent when it quoted none. */
  lineText?: string;
}

/** A caret line under an excerpt: `      ^` (node marks the column this way). */
const SYNTAX_CARET = /^\s*\^+\s*$/;

/**
 * The place of a syntax error, when the runtime gave one.
 *
 * - bun: a `BuildMessage` (or `ResolveMessage`) carries `position`
 *   (`file`, `line`, `column`, `lineText`).
 * - node: a SyntaxError whose `.stack` starts with `<file>:<line>`, the
 *   excerpt and a caret line (what node's type stripping and its CommonJS
 *   loader write) before the `SyntaxError: …` line.
 *
 * @param err Anything thrown.
 * @returns The place, or null when there is none to read (deno's errors, an
 *   error raised at run time, a module node compiled without saying where).
 * @example
 * ```ts
 * import { syntaxLocation } from "./syntax_location.ts";
 * const err = new SyntaxError("Unexpected token");
 * err.stack = "/w/a.ts:2\nlet x = (;\n         ^\n\nSyntaxError: Unexpected token";
 * const at = syntaxLocation(err);
 * if (at?.line !== 2 || at.column !== 10 || at.lineText !== "let x = (;") throw new Error();
 * ```
 */
export function syntaxLocation(err: unknown): SyntaxLocation | null {
  if (typeof err !== "object" || err === null) return null;
  try {
    const position = (err as { position?: unknown }).position as Record<string, unknown> | null;
    if (
      position && typeof position === "object" && typeof position.file === "string" &&
      typeof position.line === "number" && typeof position.column === "number"
    ) {
      return {
        file: position.file,
        line: position.line,
        column: position.column,
        ...(typeof position.lineText === "string" ? { lineText: position.lineText } : {}),
      };
    }
    if ((err as { name?: unknown }).name !== "SyntaxError") return null;
    const stack = (err as { stack?: unknown }).stack;
    if (typeof stack !== "string") return null;
    const lines = stack.split("\n");
    const head = /^(.+):(\d+)$/.exec(lines[0]);
    if (!head) return null;
    const excerpt: string[] = [];
    for (let i = 1; i < lines.length && lines[i] !== ""; i++) excerpt.push(lines[i]);
    if (excerpt.length === 0 || lines[excerpt.length + 1] !== "") return null;
    const place = { file: head[1], line: Number(head[2]) };
    const caret = excerpt.findIndex((l, i) => i > 0 && SYNTAX_CARET.test(l));
    if (caret > 0) {
      return { ...place, column: excerpt[caret].indexOf("^") + 1, lineText: excerpt[caret - 1] };
    }
    // No caret (node at the end of a file): the line alone, when the excerpt is one line.
    return excerpt.length === 1 ? { ...place, lineText: excerpt[0] } : place;
  } catch { /* a hostile getter: no place */ }
  return null;
}

/** One of several syntax errors a runtime reported at once, with its place. */
export interface PlacedSyntaxError {
  /** The runtime's message for this one (`Expected ")" but found "{"`). */
  message: string;
  location: SyntaxLocation;
}

/**
 * The placed syntax errors inside an error that gathers several: bun throws
 * an `AggregateError` (`2 errors building "…"`) whose `errors` are the
 * `BuildMessage`s, each with its own place. Each is read by
 * {@link syntaxLocation}; one without a place is left out.
 *
 * @param err Anything thrown.
 * @returns The placed errors, in the runtime's order; empty when `err` gathers none.
 * @example
 * ```ts
 * import { syntaxErrorsOf } from "./syntax_location.ts";
 * const at = (column: number) => ({ file: "/w/a.ts", line: 3, column, lineText: "if (x {" });
 * const err = Object.assign(new Error("2 errors building"), {
 *   errors: [{ message: "Expected \")\"", position: at(7) }, { message: "Unexpected }", position: at(9) }],
 * });
 * const placed = syntaxErrorsOf(err);
 * if (placed.length !== 2 || placed[1].location.column !== 9) throw new Error();
 * ```
 */
export function syntaxErrorsOf(err: unknown): PlacedSyntaxError[] {
  if (typeof err !== "object" || err === null) return [];
  const out: PlacedSyntaxError[] = [];
  try {
    const errors = (err as { errors?: unknown }).errors;
    if (!Array.isArray(errors)) return [];
    for (const each of errors) {
      const location = syntaxLocation(each);
      if (location) {
        out.push({ message: String((each as { message?: unknown }).message), location });
      }
    }
  } catch { /* a hostile getter: no places */ }
  return out;
}
