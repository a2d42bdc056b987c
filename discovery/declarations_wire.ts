/**
 * What the daemon and its type generator's process (discovery/declarations_main.ts)
 * say to each other: one JSON document each way. The daemon writes a
 * {@link DeclarationsInput} to the process's stdin and closes it; the process
 * writes one {@link DeclarationsOutput} to stdout and exits 0.
 *
 * Declared once here so both ends read the same shapes (CONVENTIONS.md,
 * rule 11); decision 0029 says why generation runs in a process of its own.
 *
 * @module
 */

import type { CachedTool } from "./types.ts";

/** One tool to declare: what `tools/list` said of it and its function identifier. */
export interface DeclarationRequest {
  /** The tool's function identifier (`toIdentifier(tool.name)`, config/identifiers.ts). */
  fn: string;
  /** The fields a declaration is made from; `annotations` are not sent. */
  tool: Pick<CachedTool, "name" | "title" | "description" | "inputSchema" | "outputSchema">;
}

/** What the generator's process reads on stdin. */
export interface DeclarationsInput {
  tools: DeclarationRequest[];
}

/**
 * What the generator's process writes on stdout: one entry per requested
 * tool, in order, each the declaration text (discovery/typescript.ts
 * `toolDeclaration`) or `null` when generating it threw.
 */
export interface DeclarationsOutput {
  declarations: (string | null)[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** At most this many characters of a document that is not the one expected are quoted. */
const QUOTED = 120;

function quote(text: string): string {
  const cut = text.length > QUOTED ? `${text.slice(0, QUOTED)}…` : text;
  return JSON.stringify(cut);
}

/**
 * Reads the generator's input.
 *
 * @param text The whole of stdin.
 * @returns The requests, in order.
 * @throws {SyntaxError} when `text` is not JSON.
 * @throws {TypeError} when it is not `{ tools: [{ fn: string, tool: { name: string, inputSchema: object } }] }`.
 */
export function readDeclarationsInput(text: string): DeclarationsInput {
  const input: unknown = JSON.parse(text);
  if (!isObject(input) || !Array.isArray(input.tools)) {
    throw new TypeError(`the input must be { "tools": [...] }, got ${quote(text)}`);
  }
  input.tools.forEach((request: unknown, i) => {
    if (
      !isObject(request) || typeof request.fn !== "string" || !isObject(request.tool) ||
      typeof request.tool.name !== "string" || !isObject(request.tool.inputSchema)
    ) {
      throw new TypeError(
        `tools[${i}] must be { "fn": string, "tool": { "name": string, "inputSchema": {...} } }`,
      );
    }
  });
  return input as unknown as DeclarationsInput;
}

/**
 * Reads the generator's answer to `count` requests.
 *
 * @param text The whole of its stdout.
 * @param count How many tools were asked for.
 * @returns One declaration (or `null`) per tool, in order.
 * @throws {SyntaxError} when `text` is not JSON (the message quotes its start).
 * @throws {TypeError} when it is not `{ declarations: (string | null)[] }` of `count` entries.
 */
export function readDeclarationsOutput(text: string, count: number): (string | null)[] {
  let output: unknown;
  try {
    output = JSON.parse(text);
  } catch {
    throw new SyntaxError(`it printed something other than JSON: ${quote(text)}`);
  }
  if (!isObject(output) || !Array.isArray(output.declarations)) {
    throw new TypeError(`it printed JSON without a "declarations" list: ${quote(text)}`);
  }
  const { declarations } = output;
  if (declarations.length !== count) {
    throw new TypeError(`it answered ${declarations.length} declarations for ${count} tools`);
  }
  const wrong = declarations.findIndex((d) => d !== null && typeof d !== "string");
  if (wrong >= 0) {
    throw new TypeError(
      `declaration ${wrong} is ${quote(JSON.stringify(declarations[wrong]))}, not text or null`,
    );
  }
  return declarations as (string | null)[];
}
