/**
 * Whether a tool's `x-mcp-header` declarations are valid (MCP 2026-07-28,
 * Streamable HTTP, "Schema Extension"; SEP-2243). Over Streamable HTTP a
 * client mirrors such an argument into an `Mcp-Param-<Name>` header, and a
 * client MUST NOT call a tool whose declarations break the rules: mcpx lists
 * it among the tools left out, with the reason, and refuses a call of it
 * before anything is sent (engine/instance.ts `listTools`).
 *
 * The rules: the annotation sits only on a property reached from the schema's
 * root through `properties` alone (never the root, nor anything under
 * `items`, `oneOf`, `$defs`, … {@link UNREACHABLE}); its value is a non-empty
 * RFC 9110 token; the property's `type` is `string`, `integer` or `boolean`;
 * no two names are equal ignoring case. The SDK applies the same rules to its
 * own `listTools()`, which mcpx does not use (engine/tool_listing.ts), and
 * does not export them.
 *
 * @module
 */

/** RFC 9110 §5.6.2 `token`: one or more `tchar`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The property types an `x-mcp-header` may sit on. */
const HEADER_TYPES = new Set(["string", "integer", "boolean"]);

/** Keywords whose subschemas are not reached through `properties`; a single schema or a list. */
const UNREACHABLE = [
  "items",
  "prefixItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
] as const;

/** Keywords whose value maps names to subschemas, none of them reached through `properties`. */
const UNREACHABLE_MAPS = ["patternProperties", "dependentSchemas", "$defs", "definitions"] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Why `inputSchema`'s `x-mcp-header` declarations are invalid, or undefined
 * when they are valid (or it has none).
 *
 * @example
 * ```ts
 * import { invalidParamHeaders } from "./param_headers.ts";
 * const ok = { type: "object", properties: { r: { type: "string", "x-mcp-header": "Region" } } };
 * if (invalidParamHeaders(ok) !== undefined) throw new Error();
 * const empty = { type: "object", properties: { r: { type: "string", "x-mcp-header": "" } } };
 * if (!/non-empty/.test(invalidParamHeaders(empty) ?? "")) throw new Error();
 * ```
 */
export function invalidParamHeaders(inputSchema: unknown): string | undefined {
  const names = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (!isObject(node)) return undefined;
    const at = path.length ? path.join(".") : "the schema's root";
    if ("x-mcp-header" in node) {
      const name = node["x-mcp-header"];
      if (!reachable || path.length === 0) {
        return `${at}: x-mcp-header is allowed only on a property reached through "properties" ` +
          "alone (not the root, nor under items, oneOf/anyOf/allOf/not, if/then/else or $defs)";
      }
      if (typeof name !== "string" || name === "") {
        return `${at}: x-mcp-header must be a non-empty string, got ${JSON.stringify(name)}`;
      }
      if (!TOKEN.test(name)) {
        return `${at}: x-mcp-header ${JSON.stringify(name)} is not an HTTP token ` +
          "(no spaces, control characters or delimiters; RFC 9110)";
      }
      if (typeof node.type !== "string" || !HEADER_TYPES.has(node.type)) {
        return `${at}: x-mcp-header is allowed only on a string, integer or boolean property, ` +
          `not ${JSON.stringify(node.type ?? "untyped")}`;
      }
      const seen = names.get(name.toLowerCase());
      if (seen !== undefined) {
        return `x-mcp-header ${JSON.stringify(name)} is declared twice (also as ` +
          `${JSON.stringify(seen)}; names are compared ignoring case)`;
      }
      names.set(name.toLowerCase(), name);
    }
    if (isObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault) return fault;
      }
    }
    const branches: [string, unknown][] = [];
    for (const keyword of UNREACHABLE) {
      const value = node[keyword];
      if (Array.isArray(value)) value.forEach((v, i) => branches.push([`${keyword}[${i}]`, v]));
      else if (value !== undefined) branches.push([keyword, value]);
    }
    for (const keyword of UNREACHABLE_MAPS) {
      const value = node[keyword];
      if (isObject(value)) {
        for (const [key, v] of Object.entries(value)) branches.push([`${keyword}.${key}`, v]);
      }
    }
    for (const [step, branch] of branches) {
      const fault = visit(branch, [...path, step], false);
      if (fault) return fault;
    }
    return undefined;
  };
  return visit(inputSchema, [], true);
}
