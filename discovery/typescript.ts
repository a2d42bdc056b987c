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
import { jsdoc } from "./_ts_text.ts";
import {
  type Declaration,
  type NamedType,
  parseDeclaration,
  parseStatements,
  printDeclaration,
  printFunction,
  printNamed,
  type TypeExpr,
} from "./_ts_model.ts";
import { renameTypes, shareArgumentDocs, shareSentences, shareTypes } from "./_ts_share.ts";
import type { CachedTool, NamespaceEntry, ToolEntry } from "./types.ts";
import { laidOutBlock } from "./block_key.ts";

type Compile = typeof import("json-schema-to-typescript").compile;
let compiler: Promise<Compile> | undefined;

function loadCompiler(): Promise<Compile> {
  compiler ??= import("json-schema-to-typescript").then((m) => m.compile);
  return compiler;
}

const WRAPPER = "McpxToolWrapper";

/** The argument and result types of one tool, and the named types they use. */
interface Rendered {
  args: TypeExpr;
  result: TypeExpr | null;
  named: NamedType[];
}

/** Runs the generator on a wrapper `{ args, result? }` and parses what it emits. */
async function render(input: unknown, output: unknown): Promise<Rendered> {
  const named: NamedDefinitions = { defs: {}, keys: new Map() };
  const properties: Record<string, Schema> = { args: normalizeSchema(input, "in", named) };
  if (output !== undefined) properties.result = normalizeSchema(output, "out", named);
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
  const statements = parseStatements(cleaned);
  const head = statements.named.find((n) => n.name === WRAPPER && n.kind === "interface");
  const body = head?.type[0];
  if (!head || typeof body !== "object") {
    throw new Error("the generator did not emit the wrapper interface");
  }
  const member = (name: string) => body.members.find((m) => m.key === name)?.type ?? null;
  const args = member("args");
  if (args === null) throw new Error("the generator dropped the arguments");
  return {
    args,
    result: output === undefined ? null : member("result"),
    named: statements.named.filter((n) => n !== head),
  };
}

/** How a renamed tool's JSDoc names the real tool: `MCP tool name "get-sum"`. */
function renamedNote(name: string): string {
  return `MCP tool name ${JSON.stringify(name)}`;
}

/**
 * The tool's JSDoc lines: its description, the real name when renamed
 * (appended to the last line as ` (MCP tool name "get-sum")`), and a note.
 */
function docLines(tool: CachedTool, fn: string, note?: string): string[] {
  const description = (tool.description ?? tool.title ?? "").trim();
  const lines = description ? description.split("\n").map((l) => l.trimEnd()) : [];
  if (tool.name !== fn) {
    if (lines.length === 0) lines.push(renamedNote(tool.name));
    else lines[lines.length - 1] += ` (${renamedNote(tool.name)})`;
  }
  // A namespace is no thenable, so a script reaches this tool another way (client/namespace_object.ts).
  if (fn === "then") lines.push("In a script: `<namespace>.then.call(args)`.");
  if (note) lines.push(note);
  return lines;
}

/**
 * The declaration of one tool's function, at indentation 0: the named types
 * it needs first (`interface Entity { … }` for an object type it repeats,
 * a recursive `$ref`'s definition), then JSDoc from the tool's description
 * (noting the real tool name when it differs from `fn`), then
 * `function fn(args: {…}): Promise<R>;`, where `args` is typed from
 * `inputSchema` and R from `outputSchema` when given, else `ToolResult`.
 * Laid out compactly: an object type that fits in 100 columns is one line,
 * and each argument's JSDoc (with its default) is one line.
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
 * if (!text.includes("message?: string")) throw new Error(text);
 * ```
 */
export async function toolDeclaration(tool: CachedTool, fn: string): Promise<string> {
  let rendered: Rendered;
  let note: string | undefined;
  try {
    rendered = await render(tool.inputSchema, tool.outputSchema);
  } catch (error) {
    try {
      rendered = await render(tool.inputSchema, undefined);
      note = `(Result type not rendered: ${oneLine(error)}.)`;
    } catch (inner) {
      rendered = { args: ["Record<string, unknown>"], result: null, named: [] };
      note = `(Argument types not rendered: ${oneLine(inner)}. ` +
        `\`mcpx --json types <namespace>.${fn}\` prints the JSON Schema the server accepts.)`;
    }
  }
  const decl: Declaration = {
    named: rendered.named,
    doc: docLines(tool, fn, note),
    fn,
    args: rendered.args,
    result: rendered.result ?? ["ToolResult"],
  };
  decl.named = shareTypes([decl]);
  return printDeclaration(decl);
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
  return generated(entry);
}

function generated(entry: ToolEntry): Promise<string> {
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

/**
 * Each tool's declaration, parsed: the cached one, or (when there is none,
 * or it does not parse, as one another mcpx wrote might not) generated.
 *
 * @param tools Tools from the discovery view.
 * @returns One declaration per tool, in order, each with its own named types.
 */
export async function parsedDeclarations(tools: ToolEntry[]): Promise<Declaration[]> {
  return await Promise.all(tools.map(async (entry) => {
    try {
      return parseDeclaration(await entryDeclaration(entry));
    } catch {
      return parseDeclaration(await generated(entry));
    }
  }));
}

/** Declarations of several tools of one namespace, with what they share said once. */
export interface NamespaceDeclarations {
  /** Named types the functions use, each printed at indentation 0. */
  named: string[];
  /** Each tool's JSDoc and function, in the order given, at indentation 0. */
  functions: string[];
}

/**
 * The declarations of several tools of one namespace with their named types
 * merged and repeated object types named once (see `shareTypes`), as the
 * generated client needs them: every argument keeps its own JSDoc.
 *
 * @param tools Tools of one namespace.
 * @param opts `typePrefix` is put before every named type's name (and each
 *   reference), so several namespaces' types can share one scope.
 * @returns Named types and functions; the functions reference the named types.
 */
export async function namespaceDeclarations(
  tools: ToolEntry[],
  opts: { typePrefix?: string } = {},
): Promise<NamespaceDeclarations> {
  const decls = await parsedDeclarations(tools);
  const named = shareTypes(decls);
  if (opts.typePrefix) {
    const prefix = opts.typePrefix;
    const renames = new Map(named.map((n) => [n.name, `${prefix}${n.name}`]));
    renameTypes({ named, doc: [], fn: "", args: [], result: [] }, renames);
    for (const d of decls) renameTypes(d, renames);
  }
  return { named: named.map((n) => printNamed(n)), functions: decls.map((d) => printFunction(d)) };
}

/** Options of {@link renderNamespace}. */
export interface RenderNamespaceOptions {
  /** Only these tools, by function identifier or real name; all when absent. */
  tools?: string[];
}

/**
 * One namespace's declarations as the body of a `declare namespace` block,
 * saying once what the tools repeat: named types merged and repeated object
 * types named (`shareTypes`), and in the returned `doc` lines: when every
 * renamed tool only turned `-` into `_`, one line saying so instead of a
 * note per tool; sentences most tool descriptions repeat (`shareSentences`);
 * arguments described alike in several tools (`shareArgumentDocs`).
 *
 * @param decls Parsed declarations, changed in place.
 * @param tools The same tools, for their real names.
 * @returns JSDoc lines for the namespace and the body, indented one level.
 */
export function shareNamespace(
  decls: Declaration[],
  tools: ToolEntry[],
): { doc: string[]; body: string } {
  const named = shareTypes(decls);
  const doc: string[] = [];
  const renamed = tools.filter((t) => t.tool !== t.fn);
  if (renamed.length >= 2 && renamed.every((t) => t.tool.replaceAll("-", "_") === t.fn)) {
    for (const [i, t] of tools.entries()) {
      if (t.tool === t.fn) continue;
      const lines = decls[i].doc;
      const last = lines.at(-1) ?? "";
      const suffix = ` (${renamedNote(t.tool)})`;
      if (last === renamedNote(t.tool)) lines.pop();
      else if (last.endsWith(suffix)) lines[lines.length - 1] = last.slice(0, -suffix.length);
    }
    const example = renamed.reduce((a, b) => (b.tool.length < a.tool.length ? b : a));
    doc.push(`Tool names have _ here where the server has - (${example.fn} is ${example.tool}).`);
  }
  doc.push(...shareSentences(decls));
  const args = shareArgumentDocs(decls);
  if (args.length > 0) {
    doc.push("Arguments shown below without a description:");
    for (const a of args) doc.push(`- ${a.name}: ${a.doc}`);
  }
  const types = named.map((n) => printNamed(n, 1)).join("\n");
  const functions = decls.map((d) => printFunction(d, 1)).join("\n\n");
  return { doc, body: [types, functions].filter(Boolean).join("\n\n") };
}

/**
 * One namespace as a `declare namespace` block: JSDoc with the namespace's
 * description, where relative paths resolve when that is not the caller's
 * directory (`pathsIn`), and what {@link shareNamespace} says once; then the named
 * types and each tool's declaration, indented two spaces, tools separated by
 * blank lines.
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
  // The whole namespace as the daemon laid it out when it listed the server, while it holds.
  const laid = wanted === null ? laidOutBlock(ns) : undefined;
  if (laid !== undefined) return laid;
  const tools = ns.tools.filter((t) => wanted === null || wanted.has(t.fn) || wanted.has(t.tool));
  return namespaceBlock(ns, tools, await parsedDeclarations(tools));
}

/**
 * {@link renderNamespace} from declarations already parsed.
 *
 * @param ns The namespace (its name and description).
 * @param tools The tools to show, in order.
 * @param decls Their parsed declarations (`parsedDeclarations`), changed in place.
 * @returns The block, no trailing newline.
 */
export function namespaceBlock(
  ns: Pick<NamespaceEntry, "namespace" | "description" | "pathsIn">,
  tools: ToolEntry[],
  decls: Declaration[],
): string {
  const { doc, body } = shareNamespace(decls, tools);
  // Where `./x` in an argument lands, when that is not the caller's directory (decision 0060).
  const paths = ns.pathsIn === undefined ? [] : [`Relative paths resolve in ${ns.pathsIn}`];
  const head = jsdoc([...(ns.description ? [ns.description] : []), ...paths, ...doc]);
  return `${head}declare namespace ${ns.namespace} {\n${body}${body ? "\n" : ""}}`;
}

/**
 * The one line every rendering of types starts with: `ToolResult`, what a
 * tool returns when its server declares no output schema, and how to call
 * a tool. Every line costs the agent tokens, so there is only this one.
 */
export const TYPES_PREAMBLE =
  "type ToolResult = unknown; // a tool's text, or its JSON output. Call: mcpx call <ns>.<tool> '<json>'";

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
