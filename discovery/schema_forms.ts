/**
 * The upstream tool catalog as a JSON Schema document and as an MCP
 * `tools/list` result (spec 000, "Types, in whichever form a consumer
 * reads"; decision 0051). Both are built from the same namespaces view
 * `mcpx types` renders, so the forms cannot disagree on a tool or a field.
 *
 * Every tool's schemas are placed under one document's named subschemas
 * (`$defs` here, `components.schemas` in the OpenAPI form: ops/schema_openapi.ts).
 * A server's schema may point into itself (`#/$defs/Node`, `#/properties/a`,
 * `#`); each such `$ref` is rewritten to the same place under the schema's
 * new home, so every reference still resolves once the schema is embedded.
 *
 * @module
 */

import type { NamespaceEntry, ToolEntry } from "./types.ts";
import { setOwn } from "../core/own.ts";

type Json = Record<string, unknown>;

/** The dialect of the JSON Schema document (JSON Schema 2020-12, as OpenAPI 3.1 uses). */
export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The `$defs` key of a tool's input (`namespace.fn`) or its output (`namespace.fn.output`). */
export function defKey(tool: ToolEntry, part: "input" | "output"): string {
  const base = `${tool.namespace}.${tool.fn}`;
  return part === "input" ? base : `${base}.output`;
}

/** One JSON Pointer reference token (RFC 6901 §3: `~` as `~0`, `/` as `~1`). */
function pointerToken(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * A server's schema moved to `home` (a JSON Pointer fragment such as
 * `#/$defs/fs.read_file`): every local `$ref` (`#…`) re-pointed under it,
 * and `$schema` and `$id` dropped (an embedded subschema is no resource of
 * its own; its dialect is the document's). Other references are left as they are.
 *
 * @param schema The server's JSON Schema (not modified).
 * @param home Where the schema will sit, as a fragment starting with `#/`.
 * @returns A copy.
 */
export function embedSchema(schema: Json, home: string): Json {
  const walk = (value: unknown, top: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, false));
    if (value === null || typeof value !== "object") return value;
    const out: Json = {};
    for (const [key, v] of Object.entries(value)) {
      if (top && (key === "$schema" || key === "$id")) continue;
      // setOwn: a property named `__proto__` stays an ordinary key (core/own.ts).
      const local = key === "$ref" && typeof v === "string" && v.startsWith("#");
      setOwn<unknown>(out, key, local ? home + v.slice(1) : walk(v, false));
    }
    return out;
  };
  return walk(schema, true) as Json;
}

/**
 * Every tool's schemas as named subschemas: `namespace.fn` its input and
 * `namespace.fn.output` its output schema when the server declared one, each
 * titled with its target and described with the tool's description.
 *
 * @param namespaces The namespaces view, tools with whole schemas.
 * @param homeOf Where a key's schema sits (`#/$defs/<key>` for JSON Schema).
 * @returns The subschemas by key, in namespace and tool order.
 */
export function toolSchemas(
  namespaces: NamespaceEntry[],
  homeOf: (key: string) => string,
): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const ns of namespaces) {
    for (const tool of ns.tools) {
      const input = defKey(tool, "input");
      out.set(input, {
        ...embedSchema(tool.inputSchema, homeOf(input)),
        title: `${tool.namespace}.${tool.fn}`,
        ...(tool.description ? { description: tool.description } : {}),
      });
      if (tool.outputSchema) {
        const output = defKey(tool, "output");
        out.set(output, {
          ...embedSchema(tool.outputSchema, homeOf(output)),
          title: `${tool.namespace}.${tool.fn} result`,
        });
      }
    }
  }
  return out;
}

/**
 * The catalog as one JSON Schema 2020-12 document: each tool's input under
 * `$defs["namespace.fn"]`, its output under `$defs["namespace.fn.output"]`.
 * The document is a schema itself (it accepts any instance; a validator
 * reads a tool's arguments against `#/$defs/<namespace.fn>`).
 *
 * @param namespaces The namespaces view, tools with whole schemas.
 * @returns The document, a plain JSON object.
 */
export function jsonSchemaDocument(namespaces: NamespaceEntry[]): Json {
  const defs: Json = {};
  const schemas = toolSchemas(namespaces, (key) => `#/$defs/${pointerToken(key)}`);
  for (const [key, schema] of schemas) {
    setOwn<unknown>(defs, key, schema);
  }
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title: "mcpx tool catalog",
    description: "The arguments (and, where a server declares them, the results) of every tool " +
      `of ${namespaces.map((ns) => ns.namespace).join(", ") || "no namespace"}, under $defs as ` +
      "<namespace>.<tool> and <namespace>.<tool>.output. Call one with " +
      "mcpx call <namespace>.<tool> '<json>'.",
    $defs: defs,
  };
}

/**
 * The catalog as an MCP `tools/list` result (MCP 2025-11-25 `ListToolsResult`):
 * one tool per upstream tool, named `namespace.fn` (what `mcpx call` and
 * `mcpx_call`'s `target` take; the characters SEP-986 allows), with the
 * server's title, description, schemas, annotations and task support, and
 * `_meta` saying where it came from.
 *
 * @param namespaces The namespaces view, tools with whole schemas.
 * @returns `{ tools }`.
 */
export function mcpToolsList(namespaces: NamespaceEntry[]): { tools: Json[] } {
  return {
    tools: namespaces.flatMap((ns) =>
      ns.tools.map((tool) => ({
        name: `${tool.namespace}.${tool.fn}`,
        ...(tool.title ? { title: tool.title } : {}),
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        ...(tool.taskSupport ? { execution: { taskSupport: tool.taskSupport } } : {}),
        _meta: {
          "mcpx/namespace": tool.namespace,
          "mcpx/server": tool.server,
          "mcpx/tool": tool.tool,
        },
      }))
    ),
  };
}
