/**
 * The `schema` op: the upstream tool catalog in the form its consumer reads
 * (spec 000, "Types, in whichever form a consumer reads"; decision 0051).
 * The tools are picked as `types` picks them (ops/types.ts), or every
 * namespace's when none is named, and rendered by one function per form:
 * discovery/typescript.ts, discovery/schema_forms.ts, ops/schema_openapi.ts.
 *
 * @module
 */

import type { InputOf, OutputOf } from "./op.ts";
import type { schema } from "./discovery_ops.ts";
import type { OpHost } from "./host.ts";
import type { NamespaceEntry } from "../discovery/types.ts";
import { answer as typesAnswer } from "./types.ts";
import { jsonSchemaDocument, mcpToolsList } from "../discovery/schema_forms.ts";
import { upstreamOpenApi } from "./schema_openapi.ts";

/** What `schema` answers (ops/discovery_outputs.ts `SchemaOutput`). */
export type SchemaOutput = OutputOf<typeof schema>;

/** The op's output, and the namespaces left out for having no tools to show. */
export interface SchemaAnswer {
  output: SchemaOutput;
  /** Namespaces not shown (every namespace asked for): each with why (a listing error, untrusted). */
  left: { namespace: string; why: string }[];
}

/**
 * Picks the tools and renders them in `input.format`.
 *
 * @param input `targets` (namespaces or `namespace.tool`; none: every
 *   namespace) and `format`.
 * @param host The namespaces view (with `daemon.endpoint` set, the daemon's).
 * @returns The document (or `{ typescript }`) and what was left out.
 * @throws {NotFoundError} For an unknown namespace or tool; {McpxError} for a
 *   namespace named that has no tools (as `types` does).
 */
export async function answer(input: InputOf<typeof schema>, host: OpHost): Promise<SchemaAnswer> {
  // The command line fills no defaults (its warm path loads no zod): absent is typescript.
  const format = input.format ?? "typescript";
  const targets = input.targets ?? [];
  let namespaces: NamespaceEntry[];
  const left: SchemaAnswer["left"] = [];
  if (targets.length > 0) {
    namespaces = (await typesAnswer({ targets }, host)).namespaces;
  } else {
    namespaces = [];
    for (const ns of (await host.namespaces()).namespaces) {
      if (ns.tools.length > 0) namespaces.push(ns);
      else if (ns.error ?? ns.unavailable) {
        left.push({ namespace: ns.namespace, why: ns.unavailable?.message ?? ns.error! });
      }
    }
    if (format === "typescript") await fillDeclarations(namespaces);
  }
  return { output: await render(format, namespaces), left };
}

/** The catalog of `namespaces` in `format`. */
async function render(
  format: InputOf<typeof schema>["format"],
  namespaces: NamespaceEntry[],
): Promise<SchemaOutput> {
  switch (format) {
    case "typescript": {
      const { renderTypes } = await import("../discovery/typescript.ts");
      return { typescript: await renderTypes(namespaces) };
    }
    case "json-schema":
      return jsonSchemaDocument(namespaces);
    case "openapi":
      return upstreamOpenApi(namespaces);
    case "mcp":
      return mcpToolsList(namespaces);
  }
}

/** Declarations for tools the cache holds none for, as `types` makes them (ops/types.ts). */
async function fillDeclarations(namespaces: NamespaceEntry[]): Promise<void> {
  const tools = namespaces.flatMap((ns) => ns.tools).filter((t) => t.declaration === undefined);
  if (tools.length === 0) return;
  const { entryDeclaration } = await import("../discovery/typescript.ts");
  await Promise.all(tools.map(async (t) => {
    try {
      t.declaration = await entryDeclaration(t);
    } catch { /* rendered without one */ }
  }));
}

/**
 * The op's output alone ({@link answer}).
 *
 * @throws As {@link answer}.
 */
export async function handle(input: InputOf<typeof schema>, host: OpHost): Promise<SchemaOutput> {
  return (await answer(input, host)).output;
}
