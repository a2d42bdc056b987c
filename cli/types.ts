/**
 * `mcpx types <namespace>[.<tool>] …`: TypeScript declarations generated from
 * the servers' own JSON Schemas, read from the schema cache (spec 000, "The
 * generated client").
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { findNamespace, findTool, noToolsError } from "../discovery/view.ts";
import { renderTypes } from "../discovery/typescript.ts";
import type { NamespaceEntry } from "../discovery/types.ts";
import { UsageError } from "../core/errors.ts";
import type { InputOf } from "../ops/op.ts";
import type { types } from "../ops/discovery_ops.ts";

export async function run(ctx: CliContext, input: InputOf<typeof types>): Promise<number> {
  const refs = input.targets;
  if (refs.length === 0) {
    throw new UsageError(
      "name a namespace (`mcpx types fs`) or a tool (`mcpx types fs.read_file`); `mcpx ls` lists them",
    );
  }
  const { namespaces, disabled } = await ctx.namespaces();
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
  if (await ctx.json()) {
    ctx.io.out(
      JSON.stringify(
        {
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
        null,
        2,
      ) + "\n",
    );
    return 0;
  }
  ctx.io.out(await renderTypes(selected));
  return 0;
}
