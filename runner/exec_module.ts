/**
 * `mcpx exec`'s code as a module: the value of its last expression is the
 * run's result, as a REPL or `node -p` would print it (spec 000, "Alternative
 * input modes"; issue 8).
 *
 * - One expression on one line (`fs.list_directory({ path: "." })`) is
 *   wrapped in a default export returning it, without parsing.
 * - Anything else is parsed (`@babel/parser` with TypeScript, loaded only
 *   then): when the last top-level statement is an expression and the code
 *   has no default export of its own, that statement becomes
 *   `const __mcpxExecValue = await (<expression>);` in place (lines keep
 *   their numbers) and a default export returns the value.
 * - A top-level `return` is refused before anything runs, with what to write
 *   instead. Other syntax errors are left to the runtime, which reports them
 *   with their place.
 *
 * @module
 */

import { UsageError } from "../core/errors.ts";

/** Code that starts like a statement or declaration is never taken as one expression. */
const STATEMENT =
  /^\s*(?:import|export|const|let|var|using|await\s+using|function|async\s+function|class|if|for|while|do|switch|try|throw|return|interface|type|enum|declare|namespace|module|abstract)\b/;

/** The binding the rewritten module keeps the last expression's value in. */
export const EXEC_VALUE = "__mcpxExecValue";

/** A babel AST node: only the fields read here. */
interface Node {
  type: string;
  start: number;
  end: number;
  expression?: Node;
  loc?: { start: { line: number; column: number } };
}

/** A babel recoverable error: `reasonCode` is babel's stable name for the error. */
interface ParseError {
  reasonCode?: string;
  loc?: { line: number; column: number };
}

/**
 * Whether `code` is one expression on one line: no `;` or newline, and it
 * does not start with a statement keyword (a cheap test that needs no parser).
 */
export function isOneLineExpression(code: string): boolean {
  const trimmed = code.trim().replace(/;+$/, "");
  return trimmed !== "" && !STATEMENT.test(trimmed) && !/[;\n]/.test(trimmed);
}

/**
 * The module text for exec code.
 *
 * @param code The code as given (`mcpx exec '<code>'` or stdin).
 * @returns A TypeScript module: the code as written, or rewritten so that its
 *   last expression's value is the default export's result.
 * @throws {UsageError} When the code has a `return` outside any function
 *   (the message gives its line and what to write instead).
 * @example
 * ```ts
 * import { execModule } from "./exec_module.ts";
 * const text = await execModule("const a = 2;\na * 3");
 * if (!text.includes("export default () => __mcpxExecValue")) throw new Error(text);
 * ```
 */
export async function execModule(code: string): Promise<string> {
  if (isOneLineExpression(code)) {
    const expression = code.trim().replace(/;+$/, "");
    // Kept on line 1 so an error's line is the user's; the newline ends a trailing `//` comment.
    return `export default async function main() { return (${expression}\n); }\n`;
  }
  const text = code.endsWith("\n") ? code : code + "\n";
  const { parse } = await import("@babel/parser");
  let program: { body: Node[] };
  let errors: ParseError[];
  try {
    const file = parse(text, {
      sourceType: "module",
      plugins: ["typescript"],
      errorRecovery: true,
    }) as unknown as { program: { body: Node[] }; errors?: ParseError[] };
    program = file.program;
    errors = file.errors ?? [];
  } catch {
    return text; // the runtime reports it, with its own place and excerpt
  }
  const illegalReturn = errors.find((e) => e.reasonCode === "IllegalReturn");
  if (illegalReturn) throw returnHint(illegalReturn.loc?.line);
  if (errors.length > 0) return text;
  if (program.body.some((n) => n.type === "ExportDefaultDeclaration")) return text;
  const last = program.body.at(-1);
  if (last?.type !== "ExpressionStatement" || !last.expression) return text;
  const { start, end } = last.expression;
  return text.slice(0, last.start) +
    `const ${EXEC_VALUE} = await (${text.slice(start, end)});` +
    text.slice(last.end) +
    `export default () => ${EXEC_VALUE};\n`;
}

function returnHint(line: number | undefined): UsageError {
  return new UsageError(
    `exec code cannot \`return\` at the top level${line ? ` (line ${line})` : ""}: ` +
      "end the code with the value itself and it is printed " +
      '(`const files = await fs.list_directory({ path: "." }); files`), ' +
      "or put the code in `export default async function main() { …; return value; }`",
  );
}
