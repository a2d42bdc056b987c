/**
 * Rewriting a server's JSON Schema into the subset `json-schema-to-typescript`
 * renders well and safely: local `$ref`s inlined (recursive ones kept as
 * named definitions), OpenAPI `nullable` and 2020-12 `prefixItems` rewritten
 * to what the generator understands, defaults moved into descriptions, and
 * everything that would make it fetch, name or inject types removed. Only
 * the keywords it reads are kept: types, `properties`, `required`,
 * `additionalProperties`, `patternProperties`, `items`, `additionalItems`,
 * `enum`, `const`, `allOf`/`anyOf`/`oneOf`, `description`.
 *
 * @module
 */

import { jsdocSafe } from "./_ts_text.ts";

/** A JSON Schema object after normalization. */
export type Schema = Record<string, unknown>;

/** Definitions that must stay named because they refer to themselves. */
export interface NamedDefinitions {
  /** Keyed by a definition key under the wrapper's `$defs`. */
  defs: Record<string, Schema>;
  /** JSON pointer (per side) → key in `defs`. */
  keys: Map<string, string>;
}

/** Most schema nodes one tool may expand to before rendering gives up. */
const MAX_NODES = 5000;
/** Deepest nesting rendered; anything deeper becomes `unknown`. */
const MAX_DEPTH = 48;

const SCHEMA_MAPS = ["properties", "patternProperties"] as const;
/** Keywords that give a schema a type; without any, the generator would guess an object. */
const TYPED_BY = [
  "type",
  "properties",
  "patternProperties",
  "additionalProperties",
  "items",
  "additionalItems",
  "enum",
  "const",
  "allOf",
  "anyOf",
  "oneOf",
  "$ref",
  "tsType",
];
const KNOWN_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
/** The state of one normalization (one side: input or output schema). */
interface Context {
  root: unknown;
  side: string;
  named: NamedDefinitions;
  nodes: number;
  /** Pointers that can reach themselves through `$ref`s. */
  cyclic: Set<string>;
}

/**
 * Normalizes one schema document.
 *
 * @param schema The tool's `inputSchema` or `outputSchema` (any JSON value).
 * @param side A short tag (`in`, `out`) keeping both sides' definitions apart.
 * @param named Where recursive definitions are collected (shared by both sides).
 * @returns The normalized schema.
 * @throws {RangeError} When the schema expands past {@link MAX_NODES} nodes.
 */
export function normalizeSchema(
  schema: unknown,
  side: string,
  named: NamedDefinitions,
): Schema {
  const ctx: Context = { root: schema, side, named, nodes: 0, cyclic: cyclicPointers(schema) };
  return normalize(schema, ctx, [], 0);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Resolves a local JSON pointer (`#/$defs/Node`, `#`) against `root`, or undefined. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** Every `$ref` string found anywhere inside `value`. */
function refsIn(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) { for (const v of value) refsIn(v, out); }
  else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") out.add(v);
      else refsIn(v, out);
    }
  }
  return out;
}

/** Local pointers that reach themselves again by following `$ref`s. */
function cyclicPointers(root: unknown): Set<string> {
  const edges = new Map<string, string[]>();
  const pending = [...refsIn(root)].filter((r) => r.startsWith("#"));
  while (pending.length > 0) {
    const ref = pending.pop()!;
    if (edges.has(ref)) continue;
    const next = [...refsIn(resolvePointer(root, ref))].filter((r) => r.startsWith("#"));
    edges.set(ref, next);
    pending.push(...next);
  }
  const cyclic = new Set<string>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...edges.get(start)!];
    while (stack.length > 0) {
      const ref = stack.pop()!;
      if (ref === start) {
        cyclic.add(start);
        break;
      }
      if (seen.has(ref)) continue;
      seen.add(ref);
      stack.push(...(edges.get(ref) ?? []));
    }
  }
  return cyclic;
}

function withNote(schema: Schema, raw: string): Schema {
  const note = jsdocSafe(raw);
  const description = typeof schema.description === "string" && schema.description.length > 0
    ? `${schema.description}\n\n${note}`
    : note;
  return { ...schema, description };
}

function brief(value: unknown): string {
  const text = jsdocSafe(JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function followRef(
  ref: string,
  schema: Record<string, unknown>,
  ctx: Context,
  stack: string[],
  depth: number,
): Schema {
  const description = typeof schema.description === "string" ? schema.description : undefined;
  const keep = (s: Schema): Schema => (description === undefined ? s : { ...s, description });
  const target = resolvePointer(ctx.root, ref);
  if (target === undefined) {
    return keep(withNote({ tsType: "unknown" }, `(unresolved $ref ${JSON.stringify(ref)})`));
  }
  if (ctx.cyclic.has(ref)) {
    const id = `${ctx.side}${ref}`;
    let key = ctx.named.keys.get(id);
    if (key === undefined) {
      key = `d${ctx.named.keys.size}`;
      ctx.named.keys.set(id, key);
      const last = ref === "#" ? "Args" : decodeURIComponent(ref.split("/").at(-1)!);
      // The generator turns the title into a type name; discovery/_ts_share.ts keeps it unique.
      const title = last;
      ctx.named.defs[key] = {}; // placeholder while the body is normalized
      ctx.named.defs[key] = { ...normalize(target, ctx, [ref], depth + 1), title };
    }
    return keep({ $ref: `#/$defs/${key}` });
  }
  if (stack.includes(ref)) return keep({ tsType: "unknown" });
  return keep(normalize(target, ctx, [...stack, ref], depth + 1));
}

function normalize(schema: unknown, ctx: Context, stack: string[], depth: number): Schema {
  if (++ctx.nodes > MAX_NODES) {
    throw new RangeError(`schema expands to more than ${MAX_NODES} nodes`);
  }
  if (schema === false) return { tsType: "never" };
  if (!isObject(schema) || depth > MAX_DEPTH) return { tsType: "unknown" };
  if (typeof schema.$ref === "string") {
    const target = schema.$ref.startsWith("#")
      ? followRef(schema.$ref, schema, ctx, stack, depth)
      : withNote(
        { tsType: "unknown" },
        `(external $ref ${JSON.stringify(schema.$ref)} not rendered)`,
      );
    return annotate(target, schema);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((SCHEMA_MAPS as readonly string[]).includes(key)) {
      if (!isObject(value)) continue;
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, normalize(sub, ctx, stack, depth + 1)]),
      );
    } else if (key === "additionalProperties" || key === "additionalItems") {
      if (typeof value === "boolean") out[key] = value;
      else if (isObject(value)) out[key] = normalize(value, ctx, stack, depth + 1);
    } else if (key === "items") {
      if (Array.isArray(value)) out.items = value.map((s) => normalize(s, ctx, stack, depth + 1));
      else if (isObject(value) || typeof value === "boolean") {
        out.items = normalize(value, ctx, stack, depth + 1);
      }
    } else if (key === "allOf" || key === "anyOf" || key === "oneOf") {
      if (Array.isArray(value) && value.length > 0) {
        out[key] = value.map((s) => normalize(s, ctx, stack, depth + 1));
      }
    } else if (key === "type") {
      const types = (Array.isArray(value) ? value : [value]).filter(
        (t): t is string => typeof t === "string" && KNOWN_TYPES.has(t),
      );
      if (types.length > 0) out.type = types.length === 1 ? types[0] : types;
    } else if (key === "enum") {
      if (Array.isArray(value) && value.length > 0) out.enum = value;
    } else if (key === "required") {
      if (Array.isArray(value)) out.required = value.filter((r) => typeof r === "string");
    } else if (key === "description") {
      if (typeof value === "string") out.description = jsdocSafe(value);
    } else if (key === "const") {
      out.const = value;
    }
    // Everything else is dropped: titles and ts* keywords would name or inject
    // types, $id/$schema could make the generator fetch, and validation-only
    // keywords (not, if, minItems, format...) have no TypeScript form.
  }
  if (Array.isArray(schema.prefixItems)) {
    out.items = schema.prefixItems.map((s) => normalize(s, ctx, stack, depth + 1));
    const rest = schema.items;
    if (rest === false) out.additionalItems = false;
    else if (isObject(rest)) out.additionalItems = normalize(rest, ctx, stack, depth + 1);
    else delete out.additionalItems;
  }
  const isObjectType = out.type === "object" ||
    (Array.isArray(out.type) && out.type.includes("object"));
  if (
    isObjectType && out.properties === undefined && out.patternProperties === undefined &&
    out.additionalProperties === undefined
  ) {
    out.additionalProperties = true;
  }
  return annotate(TYPED_BY.some((k) => k in out) ? out : { ...out, tsType: "unknown" }, schema);
}

/**
 * Applies `deprecated` (a JSDoc `@deprecated` line), `default` and `nullable`
 * of `source` to `schema`.
 */
function annotate(schema: Schema, source: Record<string, unknown>): Schema {
  let result = schema;
  if (source.default !== undefined) result = withDefault(result, source.default);
  if (source.deprecated === true) result = withNote(result, "@deprecated");
  if (source.nullable === true) result = nullable(result);
  return result;
}

/**
 * The default at the end of the description's last line, `… (default 3)`,
 * or the description alone when it already states it (`Defaults to 3.`).
 */
function withDefault(schema: Schema, value: unknown): Schema {
  const shown = brief(value);
  const description = typeof schema.description === "string" ? schema.description.trimEnd() : "";
  const plain = typeof value === "string" ? value : shown;
  if (/\bdefault/i.test(description) && description.includes(plain)) return schema;
  return {
    ...schema,
    description: description ? `${description} (default ${shown})` : `default ${shown}`,
  };
}

/** `nullable: true` (OpenAPI 3.0) as a union with `null`. */
function nullable(schema: Schema): Schema {
  if (Array.isArray(schema.enum)) {
    const type = schema.type === undefined ? {} : nullable({ type: schema.type });
    return { ...schema, ...type, enum: [...new Set([...schema.enum, null])] };
  }
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.type)) {
    return { ...schema, type: [...new Set([...schema.type, "null"])] };
  }
  const { description, ...rest } = schema;
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [rest, { type: "null" }],
  };
}
