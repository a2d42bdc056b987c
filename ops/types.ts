/**
 * The `types` op: the tools of whole namespaces, or of just the tools named
 * (`ns.tool`), with the servers' own JSON Schemas and the TypeScript
 * declarations generated from them, read from the schema cache (spec 000,
 * "The generated client", "Types, in whichever form a consumer reads").
 *
 * @module
 */

import type { InputOf, OutputOf } from "./op.ts";
import type { types } from "./discovery_ops.ts";
import type { OpHost } from "./host.ts";
import { findNamespace, findTool, noToolsError } from "../discovery/view.ts";
import type { NamespaceEntry, ToolEntry } from "../discovery/types.ts";
import { McpxError, UsageError } from "../core/errors.ts";
import { shellWord } from "../config/shell_word.ts";
import type { ListingWait } from "../engine/tool_listing.ts";
import { startingSentence } from "../discovery/starting_note.ts";
import { listingWaitOf, waitCommand } from "./wait_flag.ts";

/** What `types` answers (ops/discovery_outputs.ts `TypesOutput`). */
export type TypesOutput = OutputOf<typeof types>;

/** The op's output and the namespaces it comes from, for rendering as TypeScript. */
export interface TypesAnswer {
  output: TypesOutput;
  /** The namespaces named, each with only the tools named (all of them for a bare namespace). */
  namespaces: NamespaceEntry[];
}

/**
 * Picks the namespaces and tools `input.targets` name, in the order first named.
 *
 * @param input `targets`: namespaces or `namespace.tool` refs; at least one.
 * @param host The namespaces view.
 * @returns The output and the picked namespaces.
 * @throws {UsageError} When no target is given.
 * @throws {NotFoundError} For an unknown namespace or tool, with suggestions.
 * @param wait How long to wait for listings in progress (ops/wait_flag.ts; absent: to the end).
 * @throws {McpxError} For a namespace without tools (not listed, failed, untrusted);
 *   code `server-starting` for one whose first listing is still in progress (decision 0010).
 */
export async function answer(
  input: InputOf<typeof types>,
  host: OpHost,
  wait?: ListingWait,
): Promise<TypesAnswer> {
  const refs = input.targets;
  if (refs.length === 0) {
    throw new UsageError(
      "name a namespace (`mcpx types fs`) or a tool (`mcpx types fs.read_file`); `mcpx ls` lists them",
    );
  }
  // Only the namespaces named are read whole (`ns` of `ns.tool`; a namespace has no `.`).
  const named = refs.map((ref) => ref.includes(".") ? ref.slice(0, ref.indexOf(".")) : ref);
  const { namespaces, disabled, starting = [] } = await host.namespaces({ schemas: named, wait });
  // A namespace still starting has no tools to show yet: say so, with the command that waits.
  const waiting = starting.filter((s) => named.includes(s.namespace) || named.includes(s.server));
  if (waiting.length) {
    throw new McpxError(
      "server-starting",
      startingSentence(
        waiting,
        waitCommand(["mcpx types", ...refs.map(shellWord)].join(" ")),
      ),
    );
  }
  const picked = new Map<string, { ns: NamespaceEntry; tools: Set<string> | null }>();
  for (const ref of refs) {
    const dot = ref.indexOf(".");
    if (dot < 0) {
      const ns = findNamespace(namespaces, ref, disabled);
      const empty = noToolsError(ns);
      if (empty) throw empty;
      picked.set(ns.namespace, { ns, tools: null });
      continue;
    }
    const tool = findTool(namespaces, ref, disabled);
    const ns = findNamespace(namespaces, tool.namespace);
    const current = picked.get(ns.namespace);
    if (current?.tools === null) continue;
    const tools = current?.tools ?? new Set<string>();
    tools.add(tool.fn);
    picked.set(ns.namespace, { ns, tools });
  }
  const selected = [...picked.values()].map(({ ns, tools }) =>
    tools ? { ...ns, tools: ns.tools.filter((t) => tools.has(t.fn)) } : ns
  );
  await fillDeclarations(selected.flatMap((ns) => ns.tools));
  return {
    output: {
      namespaces: selected.map((ns) => ({
        namespace: ns.namespace,
        description: ns.description,
        tools: ns.tools.map((t) => ({
          function: `${t.namespace}.${t.fn}`,
          tool: t.tool,
          description: t.description,
          inputSchema: t.inputSchema,
          ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
          ...(t.declaration ? { declaration: t.declaration } : {}),
        })),
      })),
    },
    namespaces: selected,
  };
}

/**
 * The op's output alone ({@link answer}).
 *
 * @throws As {@link answer}.
 */
export async function handle(input: InputOf<typeof types>, host: OpHost): Promise<TypesOutput> {
  const wait = listingWaitOf(input.wait, await host.setting("discovery.wait"));
  return (await answer(input, host, wait)).output;
}

/**
 * Gives each tool without a cached declaration one made here: a listing's
 * declarations follow it into the cache (decision 0029), so `--json` answers
 * the same before they land. A tool whose declaration cannot be made keeps
 * none. Loads the generator only when one is missing.
 */
async function fillDeclarations(tools: ToolEntry[]): Promise<void> {
  const missing = tools.filter((t) => t.declaration === undefined);
  if (missing.length === 0) return;
  const { entryDeclaration } = await import("../discovery/typescript.ts");
  await Promise.all(missing.map(async (t) => {
    try {
      t.declaration = await entryDeclaration(t);
    } catch { /* printed without one */ }
  }));
}
