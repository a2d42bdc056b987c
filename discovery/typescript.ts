/**
 * TypeScript declarations of tools, generated from their JSON Schemas: what
 * `mcpx types <ns>` prints and what the catalog budgets.
 *
 * Source of the rules: spec 000, "The generated client" (enums become literal
 * unions, nullable types unions with null, `$ref` resolved, cycles bottom out
 * in a named type or `unknown`, descriptions become JSDoc) and the opening
 * walk's `mcpx types chrome_devtools` output.
 *
 * Generation uses `json-schema-to-typescript`, loaded on first use so callers
 * that never render types do not pay its load time (about 65–85 ms).
 *
 * @module
 */

import { type NamedDefinitions, normalizeSchema, type Schema } from "./_schema_normalize.ts";
import { codeMask, indentLines, jsdoc, matchBracket, reindent, splitMembers } from "./_ts_text.ts";
import type { CachedTool, NamespaceEntry, ToolEntry } from "./types.ts";

type Compile = typeof import("json-schema-to-typescript").compile;
let compiler: Promise<Compile> | undefined;

function loadCompiler(): Promise<Compile> {
  compiler ??= import("json-schema-to-typescript").then((m) => m.compile);
  return compiler;
}

const WRAPPER = "McpxToolWrapper";

/** The argument and result types of one tool, and named types they need. */
interface Rendered {
  args: string;
  result: string | null;
  named: string;
}

/** Runs the generator on a wrapper `{ args, result? }` and takes its members apart. */
async function render(
  input: unknown,
  output: unknown,
  fn: string,
): Promise<Rendered> {
  const named: NamedDefinitions = { defs: {}, keys: new Map() };
  const properties: Record<string, Schema> = { args: normalizeSchema(input, "in", fn, named) };
  if (output !== undefined) properties.result = normalizeSchema(output, "out", fn, named);
  const wrapper = {
    title: WRAPPER,
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    $defs: named.defs,
  };
  const compile = await loadCompiler();
  const text = await compile(wrapper as never, WRAPPER, {
    bannerComment: "",
    format: false,
    additionalProperties: false,
    strictIndexSignatures: false,
    ignoreMinAndMaxItems: true,
    unknownAny: true,
    declareExternallyReferenced: true,
    enableConstEnums: false,
    $refOptions: { resolve: { external: false, file: false, http: false } } as never,
  });
  const cleaned = text.replace(
    /\/\*\*\n(?:[ \t]*\*[^\n]*\n)*?[ \t]*\* This interface was referenced by[\s\S]*?\*\/\n?/g,
    "",
  );
  const mask = codeMask(cleaned);
  const head = new RegExp(`(?:export )?interface ${WRAPPER} \\{`).exec(cleaned);
  if (!head) throw new Error("the generator did not emit the wrapper interface");
  const open = head.index + head[0].length - 1;
  const close = matchBracket(cleaned, open, mask);
  if (close < 0) throw new Error("the generator emitted an unbalanced wrapper interface");
  const members = splitMembers(cleaned.slice(open + 1, close));
  const member = (name: string): string | null => {
    for (const m of members) {
      const code = m.replace(/^(?:\s*\/\*[\s\S]*?\*\/\s*)*/, "");
      const found = new RegExp(`^${name}\\??: ?`).exec(code);
      if (found) return code.slice(found[0].length).trim();
    }
    return null;
  };
  const args = member("args");
  if (args === null) throw new Error("the generator dropped the arguments");
  const result = output === undefined ? null : member("result");
  const rest = (cleaned.slice(0, head.index) + cleaned.slice(close + 1))
    .replace(/^export /gm, "")
    .trim();
  return { args, result, named: rest };
}

/** The tool's JSDoc lines: its description and, when renamed, its real name. */
function docLines(tool: CachedTool, fn: string, note?: string): string[] {
  const lines: string[] = [];
  const description = tool.description ?? tool.title ?? "";
  if (description.trim()) lines.push(description.trim());
  if (tool.name !== fn) lines.push(`MCP tool name: ${JSON.stringify(tool.name)}.`);
  if (note) lines.push(note);
  return lines;
}

/**
 * The declaration of one tool's function, at indentation 0:
 * named helper types first (only for recursive `$ref`s, named
 * `<fn>_<Definition>` so tools never collide), then JSDoc from the tool's
 * description (noting the real tool name when it differs from `fn`), then
 * `function fn(args: {…}): Promise<R>;`, where `args` is typed from
 * `inputSchema` and R from `outputSchema` when given, else `ToolResult`.
 *
 * Never throws for a schema: when generation fails the arguments become
 * `Record<string, unknown>` (and the result `ToolResult`) with a JSDoc note.
 *
 * @param tool The tool as cached from `tools/list`.
 * @param fn Its function identifier (`toIdentifier(tool.name)`).
 * @returns Declaration text, lines separated by `\n`, no trailing newline.
 * @example
 * ```ts
 * import { toolDeclaration } from "./typescript.ts";
 * const text = await toolDeclaration(
 *   { name: "echo", inputSchema: { type: "object", properties: { message: { type: "string" } } } },
 *   "echo",
 * );
 * if (!text.includes("message?: string;")) throw new Error(text);
 * ```
 */
export async function toolDeclaration(tool: CachedTool, fn: string): Promise<string> {
  let rendered: Rendered;
  let note: string | undefined;
  try {
    rendered = await render(tool.inputSchema, tool.outputSchema, fn);
  } catch (error) {
    try {
      rendered = await render(tool.inputSchema, undefined, fn);
      note = `(Result type not rendered: ${oneLine(error)}.)`;
    } catch (inner) {
      rendered = { args: "Record<string, unknown>", result: null, named: "" };
      note = `(Argument types not rendered: ${oneLine(inner)}. ` +
        "`mcpx call --raw` shows what the server accepts.)";
    }
  }
  const named = rendered.named ? `${rendered.named}\n\n` : "";
  const signature = `function ${fn}(args: ${rendered.args}): Promise<${
    rendered.result ?? "ToolResult"
  }>;`;
  return reindent(named + jsdoc(docLines(tool, fn, note)) + signature);
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split("\n")[0];
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

/**
 * A tool entry's declaration: the cached `declaration` when present, else
 * generated by {@link toolDeclaration}.
 *
 * @param entry A tool from the discovery view.
 * @returns Declaration text at indentation 0.
 */
export function entryDeclaration(entry: ToolEntry): Promise<string> {
  if (entry.declaration !== undefined) return Promise.resolve(entry.declaration);
  return toolDeclaration(
    {
      name: entry.tool,
      description: entry.description,
      inputSchema: entry.inputSchema,
      outputSchema: entry.outputSchema,
    },
    entry.fn,
  );
}

/** Options of {@link renderNamespace}. */
export interface RenderNamespaceOptions {
  /** Only these tools, by function identifier or real name; all when absent. */
  tools?: string[];
}

/**
 * One namespace as a `declare namespace` block: the namespace description as
 * JSDoc, then each tool's declaration (its cached `declaration` when present,
 * else generated), indented two spaces, separated by blank lines.
 *
 * @param ns The namespace from the discovery view.
 * @param opts `tools` limits the block to some tools (`mcpx types ns.tool`).
 * @returns The block, no trailing newline.
 */
export async function renderNamespace(
  ns: NamespaceEntry,
  opts: RenderNamespaceOptions = {},
): Promise<string> {
  const wanted = opts.tools === undefined ? null : new Set(opts.tools);
  const tools = ns.tools.filter((t) => wanted === null || wanted.has(t.fn) || wanted.has(t.tool));
  const declarations = await Promise.all(tools.map(entryDeclaration));
  const body = declarations.map((d) => indentLines(d, "  ")).join("\n\n");
  const doc = jsdoc(ns.description ? [ns.description] : []);
  return `${doc}declare namespace ${ns.namespace} {\n${body}${body ? "\n" : ""}}`;
}

/**
 * The header and shared types every rendering of types starts with: what
 * generated the text, that every function is async and results arrive
 * unwrapped, and `ToolResult` with its `raw` MCP envelope. Kept short: every
 * line costs the agent tokens.
 */
export const TYPES_PREAMBLE = `// Generated by mcpx from each server's own schemas.
// Call one with: mcpx call <namespace>.<tool> '<arguments as JSON>'
/** What a tool returns: its text, or its structured output as JSON. */
type ToolResult = unknown;`;

/**
 * Every given namespace's declarations after {@link TYPES_PREAMBLE}, blocks
 * separated by blank lines, ending in a newline: the text of `mcpx types`.
 *
 * @param namespaces Namespaces to render, in the order given.
 * @returns TypeScript declarations that type-check as one `.d.ts` file.
 */
export async function renderTypes(namespaces: NamespaceEntry[]): Promise<string> {
  const blocks = await Promise.all(namespaces.map((ns) => renderNamespace(ns)));
  return [TYPES_PREAMBLE, ...blocks].join("\n\n") + "\n";
}
