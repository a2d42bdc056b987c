/**
 * The generated client, `mcpx-client.ts`: the runtime (client/script_runtime.ts
 * and what it imports, inlined by client/bundle.ts) followed by one typed
 * object per namespace, generated from the schema cache (spec 000, "The
 * generated client"; decision 0004).
 *
 * The file's first line carries the SHA-256 of everything after it, so a
 * writer compares one line to know whether the file is current, and an
 * unchanged client is never rewritten (the runtime's module cache stays warm).
 *
 * Emitted code is TypeScript that Node's type stripping accepts: type-only
 * constructs (interfaces, annotations, `type` aliases) and plain JavaScript;
 * no enums, namespaces or parameter properties (spec 000, "Runtime portability").
 *
 * @module
 */

import { bundleModule, DECLARATION } from "./bundle.ts";
import { entryDeclaration, namespaceDeclarations } from "../discovery/typescript.ts";
import type { NamespaceEntry, ToolEntry } from "../discovery/types.ts";
import { jsdoc } from "../discovery/_ts_text.ts";
import { sha256Hex as sha256 } from "../core/sha256.ts";
import { ROOT_URL } from "../core/root.ts";
import type { EmptyNamespace } from "./namespace_guard.ts";

/** The first-line marker of a generated client. */
export const CLIENT_MARKER = "// mcpx-client";

let runtime: Promise<string> | undefined;

/** The runtime half of every client, bundled once per process. */
export function runtimeSource(): Promise<string> {
  runtime ??= bundleModule(new URL("client/script_runtime.ts", ROOT_URL), async (url) => {
    if (url.protocol === "file:") return await Deno.readTextFile(url);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`cannot read ${url.href}: HTTP ${response.status}`);
    return await response.text();
  });
  return runtime;
}

/** What the index needs of a tool: no schemas beyond the required names. */
function indexEntry(t: ToolEntry): ToolEntry {
  const required = Array.isArray(t.inputSchema?.required) ? t.inputSchema.required : [];
  return {
    namespace: t.namespace,
    server: t.server,
    tool: t.tool,
    fn: t.fn,
    description: t.description,
    tags: t.tags,
    inputSchema: { required },
  };
}

/** A tool's declaration turned into an interface member taking call options. */
function memberOf(ns: string, tool: ToolEntry, declaration: string): {
  named: string;
  member: string;
} {
  const at = declaration.search(new RegExp(`(^|\\n)function ${escapeRegExp(tool.fn)}\\(`));
  if (at < 0) throw new Error(`no signature for ${ns}.${tool.fn} in its declaration`);
  const head = declaration.slice(0, at);
  const docAt = head.trimEnd().endsWith("*/") ? head.lastIndexOf("/**") : -1;
  let named = docAt >= 0 ? head.slice(0, docAt) : head;
  const doc = docAt >= 0 ? head.slice(docAt).trim() + "\n" : "";
  let signature = declaration.slice(at).trim();
  // Named helper types are per tool (`<fn>_Node`); namespaces may repeat a fn.
  for (const m of named.matchAll(/^(?:type|interface)\s+(\w+)/gm)) {
    const rename = (text: string) =>
      text.replace(new RegExp(`(?<![\\w$])${escapeRegExp(m[1])}(?![\\w$])`, "g"), `${ns}__${m[1]}`);
    named = rename(named);
    signature = rename(signature);
  }
  const required = Array.isArray(tool.inputSchema?.required) && tool.inputSchema.required.length;
  signature = signature.replace(
    `function ${tool.fn}(args:`,
    `${tool.fn}(args${required ? "" : "?"}:`,
  );
  const split = signature.lastIndexOf("): Promise<");
  signature = signature.slice(0, split) + ", options?: CallOptions" + signature.slice(split);
  // A namespace is no thenable: the tool `then` is called as `ns.then.call(args)`
  // (client/namespace_object.ts).
  if (tool.fn === "then") {
    signature = `then: {\n${
      ("/** Calls the tool `then`. */\n" + signature.replace(/^then/, "call"))
        .replace(/^/gm, "  ")
    }\n};`;
  }
  return { named: named.trim(), member: doc + signature };
}

/** `text` with every character a regular expression gives a meaning escaped (`$` in identifiers). */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

/**
 * The whole text of `mcpx-client.ts` for these namespaces.
 *
 * @param namespaces The visible namespaces (the CLI's discovery view, so a
 *   profile's selection applies to scripts too).
 * @param version mcpx's version, sent with every call and part of the hash.
 * @returns The module text; line 1 is `// mcpx-client <version> sha256:<hex>`.
 * @throws {Error} When the runtime cannot be read (a broken installation).
 */
export async function generateClient(
  namespaces: NamespaceEntry[],
  version: string,
): Promise<string> {
  const runtime = await runtimeSource();
  const reserved = new Set([
    "tools",
    "default",
    ...[...runtime.matchAll(DECLARATION)].map((m) => m[1]),
  ]);
  const declarations: Record<string, string> = {};
  const blocks: string[] = [];
  const names: string[] = [];
  for (const ns of namespaces) {
    const members: string[] = [];
    const fns: string[] = [];
    // Object types the tools repeat are declared once per namespace, prefixed so two
    // namespaces' `Entity` never meet in the module's scope.
    const shared = await namespaceDeclarations(ns.tools, { typePrefix: `${ns.namespace}__` });
    const named = [...shared.named];
    for (const [i, tool] of ns.tools.entries()) {
      declarations[`${ns.namespace}.${tool.fn}`] = await entryDeclaration(tool);
      const part = memberOf(ns.namespace, tool, shared.functions[i]);
      if (part.named) named.push(part.named);
      members.push(part.member.replace(/^/gm, "  "));
      fns.push(
        `  [${JSON.stringify(tool.fn)}, (args, options) => callTool(${JSON.stringify(ns.server)}, ${
          JSON.stringify(ns.namespace)
        }, ${JSON.stringify(tool.tool)}, args ?? {}, options) as Promise<any>],`,
      );
    }
    // The real name reaches the same function (`ns["get-sum"]`, `ns.class`) unless a
    // function of that name exists already.
    const fnNames = new Set(ns.tools.map((t) => t.fn));
    const aliases: [string, string][] = [];
    for (const tool of ns.tools) {
      // A name starting with `$` is the client's own (`$prompts`): no tool is aliased to one.
      if (tool.tool === tool.fn || fnNames.has(tool.tool) || tool.tool.startsWith("$")) continue;
      const key = JSON.stringify(tool.tool);
      members.push(
        `  /** ${tool.fn} under its real name. */\n  ${key}: ${ns.namespace}_Tools[${
          JSON.stringify(tool.fn)
        }];`,
      );
      aliases.push([tool.tool, tool.fn]);
    }
    const type = `${ns.namespace}_Tools`;
    // A namespace named like a runtime export (`log`, `search`…) stays reachable as tools.<ns>.
    const binding = reserved.has(ns.namespace) ? `ns__${ns.namespace}` : ns.namespace;
    // Without tools, any use says why rather than "… is not a function".
    // Members are defined on an object without a prototype (client/namespace_object.ts), so a
    // tool named `toString` or `__proto__` is that tool and one named `then` no thenable.
    const own = `contentApis(${JSON.stringify(ns.namespace)})`;
    // A server still starting (decision 0010): any name is a call the daemon waits to make.
    const passThrough = `(tool) => (args, options) => callTool(${JSON.stringify(ns.server)}, ${
      JSON.stringify(ns.namespace)
    }, tool, args ?? {}, options) as Promise<any>`;
    const value = ns.starting
      ? `namespaceObject(${JSON.stringify(ns.namespace)}, [\n${fns.join("\n")}\n], ${
        JSON.stringify(aliases)
      }, ${own}, ${passThrough})`
      : ns.tools.length === 0
      ? `namespaceWithoutTools(${JSON.stringify(emptyNamespace(ns))}, ${own})`
      : `namespaceObject(${JSON.stringify(ns.namespace)}, [\n${fns.join("\n")}\n], ${
        JSON.stringify(aliases)
      }, ${own})`;
    members.push(
      "  /** This namespace's prompts: `list()`, `get(name, args)` (`mcpx prompts`). */\n" +
        "  readonly $prompts: PromptsApi;",
      "  /** This namespace's resources: `list()`, `read(uri, vars?)` (`mcpx resources`). */\n" +
        "  readonly $resources: ResourcesApi;",
    );
    blocks.push(
      [
        ...named,
        `${jsdoc(ns.description ? [ns.description] : [])}export interface ${type} {\n${
          members.join("\n\n")
        }\n}`,
        ...(ns.starting ? [startingDeclaration(ns.namespace)] : []),
        `${jsdoc(ns.description ? [ns.description] : [])}${
          binding === ns.namespace ? "export " : ""
        }const ${binding}: ${ns.starting ? `${type} & ${type}_Starting` : type} = ${value};`,
      ].join("\n\n"),
    );
    names.push(binding === ns.namespace ? binding : `${ns.namespace}: ${binding}`);
  }
  const index = namespaces.flatMap((ns) => ns.tools.map(indexEntry));
  const generated = [
    "// ---- generated from the schema cache ----",
    "/** What a tool without an output schema returns: parsed JSON, a String carrying `.raw`, or the envelope. */",
    "// deno-lint-ignore no-explicit-any",
    "export type ToolResult = any;",
    `configureClient({\n  version: ${JSON.stringify(version)},\n  tools: ${
      JSON.stringify(index)
    },\n  declarations: ${JSON.stringify(declarations)},\n});`,
    ...blocks,
    `/** Every namespace, by name. */\nexport const tools = { ${names.join(", ")} };`,
    "export default tools;",
  ].join("\n\n");
  const body = `${runtime}\n${generated}\n`;
  const sha = await sha256(body);
  return `${CLIENT_MARKER} ${version} sha256:${sha}\n` +
    "// Generated by mcpx; regenerated when the servers' schemas or mcpx change. Do not edit.\n" +
    "// deno-lint-ignore-file\n" + body;
}

/**
 * The loose type of a namespace whose server was still starting when the
 * client was made: any member is a tool taking any arguments. Its comment
 * says why, for whoever reads the declaration.
 */
function startingDeclaration(ns: string): string {
  return `/**\n * ${ns}'s server was still starting when this client was made, so its tools are\n` +
    " * not known yet and are typed loosely: any name calls the tool of that name, and\n" +
    " * the call waits for the server's start. The next run after it is listed\n" +
    " * regenerates this client with its real tools and types.\n */\n" +
    `export type ${ns}_Tools_Starting = {\n` +
    "  [tool: string]: (args?: Record<string, unknown>, options?: CallOptions) => Promise<ToolResult>;\n" +
    "};";
}

/**
 * Why a namespace has no tools, for the guard standing in for it: its
 * listing failed (the error's first line), the configuration hides every
 * tool, or the server lists none.
 */
export function emptyNamespace(ns: NamespaceEntry): EmptyNamespace {
  const base = { namespace: ns.namespace, server: ns.server };
  if (ns.unavailable?.code === "untrusted") return { ...base, code: "untrusted", detail: ns.error };
  if (ns.error) {
    return { ...base, code: "listing-failed", detail: ns.error.split("\n")[0].trim() };
  }
  if (ns.excluded?.length) return { ...base, code: "all-hidden", hidden: ns.excluded.length };
  return { ...base, code: "no-tools" };
}

/** The runtime's globals in a launched script; a namespace of the same name is `tools.<ns>` only. */
const RUNTIME_GLOBALS = [
  "log",
  "emit",
  "search",
  "describe",
  "ToolError",
  "NamespaceError",
  "captureFrames",
  "errorFrames",
];

/**
 * `mcpx-globals.d.ts`: tells an editor that a launched script has `tools`,
 * every namespace, `log`, `emit`, `search`, `describe` and friends as globals.
 *
 * @param namespaces Namespace identifiers.
 * @returns The declaration file's text.
 */
export function generateGlobals(namespaces: string[]): string {
  const lines = [
    "// Generated by mcpx: the globals `mcpx run` and `mcpx exec` install. Do not edit.",
    'import type * as client from "./mcpx-client.ts";',
    "declare global {",
    "  const tools: typeof client.tools;",
    // A name every object has (`constructor`, `toString`) is no global: launcher.installGlobals
    // skips it, so the namespace is `tools.<ns>` only.
    ...namespaces.filter((ns) => !RUNTIME_GLOBALS.includes(ns) && !(ns in Object.prototype)).map((
      ns,
    ) => `  const ${ns}: typeof client.tools.${ns};`),
    ...RUNTIME_GLOBALS.map((n) => `  const ${n}: typeof client.${n};`),
    "}",
    "export {};",
  ];
  return lines.join("\n") + "\n";
}
