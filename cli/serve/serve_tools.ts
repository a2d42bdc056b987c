/**
 * The tools `mcpx serve` offers, generated from the op table: one tool
 * `mcpx_<op>` per op marked `serve` (ops/op.ts `ServeSpec`), its input the
 * op's own zod input narrowed to the fields a tool takes, its output schema
 * and its annotations the op's hints (MCP 2025-06-18, "Tool annotations"),
 * only those that differ from the protocol's defaults. No tool declares an
 * output schema: each answers its JSON as text and as `structuredContent`,
 * and the schemas were two thirds of the list's bytes, read by no client we
 * know (decision 0071; the list stays within 1,500 tokens, a test holds it).
 * Upstream tools are never listed one
 * by one: reaching them is what `mcpx_search`, `mcpx_types`, `mcpx_call` and
 * `mcpx_exec` are for (spec 000, "mcpx speaks MCP"; decision 0044).
 *
 * @module
 */

import * as z from "zod";
import { OPS } from "../../ops/table.ts";
import type { OpSpec, ServeSpec } from "../../ops/op.ts";
import { UsageError } from "../../core/errors.ts";
import { nearest } from "../../core/nearest.ts";
import { toolFieldHelp } from "../../ops/cli_help.ts";

/** What every serve tool's name starts with. */
export const SERVE_TOOL_PREFIX = "mcpx_";

/** One tool of `mcpx serve`. */
export interface ServeTool {
  /** `mcpx_<op name>`. */
  name: string;
  /** The op the tool runs (its command module, as the CLI does). */
  op: OpSpec;
  description: string;
  /** What the tool takes: the op's input narrowed to `serve.fields`. */
  input: z.ZodObject;
  /**
   * MCP tool annotations from the op's hints, each only when it differs from
   * its default (readOnly false, destructive true, idempotent false, openWorld
   * true; MCP 2025-06-18 `ToolAnnotations`), and destructive and idempotent
   * only for a tool that is not read-only, the only one they mean anything for.
   */
  annotations: {
    readOnlyHint?: true;
    destructiveHint?: false;
    idempotentHint?: true;
    openWorldHint?: false;
  };
}

/**
 * The ops `mcpx serve` offers no tool for, each with why (docs/parity.md
 * lists them): what would serve forever or is the server itself.
 */
export const NOT_SERVED: Readonly<Record<string, string>> = {
  serve: "it is the MCP server the client is talking to",
  daemon: "it runs a daemon in the foreground until stopped; every tool already reaches the daemon",
  "completion-words": "plumbing the shell's completion scripts call as they type",
  explore:
    "a prompt that reads a person's commands from its own stdin; each of them is a tool here",
  events: "the MCP view of the event bus is serve's own notifications (list_changed, " +
    "resources/updated), sent only as the client asked; the rest of the bus is mcpx's, for " +
    "the shell (mcpx events) and HTTP (GET /v1/events)",
  tui:
    "it draws full-screen on the terminal it runs in, for a person; its views read ops that are tools already",
};

/** Whether plain `serve` lists the op: it is marked `serve`, and not `core: false`. */
export function isCore(op: OpSpec): boolean {
  return op.serve !== undefined && op.serve.core !== false;
}

/** Input fields no tool takes: a server named on the command line (the tool's is configured). */
const SHELL_ONLY_FIELDS: ReadonlySet<string> = new Set(["stdio", "header"]);

/**
 * Which tools `mcpx serve --tools` lists: `core` (default), the ops marked
 * `serve` in the table — the lean set an agent needs to reach every server,
 * whose tokens the protocol issue caps; `all`, every op but
 * {@link NOT_SERVED}; or the ops named (an op's name or its tool's).
 */
export type ServeToolChoice = "core" | "all" | readonly string[];

/**
 * The choice `--tools <value>` means: `all`, `core`, or comma-separated names.
 *
 * @throws {UsageError} For a name that is no op serve can offer (with the nearest names).
 */
export function serveToolChoice(
  value: string | undefined,
  ops: readonly OpSpec[] = OPS,
): ServeToolChoice {
  if (value === undefined) return "core";
  const offered = ops.filter((op) => !Object.hasOwn(NOT_SERVED, op.name)).map((op) => op.name);
  const names = [
    ...new Set(
      value.split(",").map((n) => n.trim()).filter(Boolean).map((n) =>
        n.startsWith(SERVE_TOOL_PREFIX) ? n.slice(SERVE_TOOL_PREFIX.length).replaceAll("_", "-") : n
      ),
    ),
  ];
  if (names.length === 0) throw new UsageError("--tools names no tool; give all, core or names");
  // `all` is every tool whatever else is named; `core` may be widened by names (`core,doctor`).
  if (names.includes("all")) return "all";
  if (names.length === 1 && names[0] === "core") return "core";
  for (const name of names) {
    if (name === "core" || offered.includes(name)) continue;
    const near = nearest(name, offered);
    throw new UsageError(
      `--tools: "${name}" is no operation serve offers` +
        (Object.hasOwn(NOT_SERVED, name) ? ` (${NOT_SERVED[name]})` : "") +
        `; give all, core, or names such as ${near.length ? near.join(", ") : "ls,search,call"}`,
    );
  }
  return names;
}

/**
 * The serve tools of `ops`, in table order.
 *
 * @param ops The op table (default: mcpx's, ops/table.ts).
 * @param choice Which tools ({@link ServeToolChoice}; default the core set).
 * @throws {TypeError} When an op has an input that is not an object, or its
 *   `serve` names a field its input lacks (a table mistake; the parity test
 *   fails first).
 */
export function serveTools(
  ops: readonly OpSpec[] = OPS,
  choice: ServeToolChoice = "core",
): ServeTool[] {
  const chosen = (op: OpSpec) =>
    choice === "core"
      ? isCore(op)
      : choice === "all"
      ? !Object.hasOwn(NOT_SERVED, op.name)
      : choice.includes(op.name) || (choice.includes("core") && isCore(op));
  return ops.filter(chosen).map((op) => {
    const spec: ServeSpec = op.serve ?? {};
    if (!(op.input instanceof z.ZodObject)) {
      throw new TypeError(`op ${op.name} is offered by serve but its input is not an object`);
    }
    const shape = op.input.shape as Record<string, z.ZodType>;
    const fields = spec.fields ?? Object.keys(shape).filter((f) => !SHELL_ONLY_FIELDS.has(f));
    const kept: Record<string, z.ZodType> = {};
    for (const field of fields) {
      const schema = shape[field];
      if (!schema) throw new TypeError(`op ${op.name}: serve names "${field}", not an input field`);
      const syntax = Object.values(op.cli?.flags ?? {}).find((f) => f.field === field)?.syntax;
      kept[field] = syntax && schema.description
        ? schema.describe(toolFieldHelp(schema.description, syntax))
        : schema;
    }
    const { readOnly, destructive, idempotent } = op.hints;
    return {
      name: `${SERVE_TOOL_PREFIX}${op.name.replaceAll("-", "_")}`,
      op,
      description: spec.description ?? op.description,
      input: z.object(kept),
      annotations: {
        ...(readOnly ? { readOnlyHint: true as const } : {}),
        ...(!readOnly && !destructive ? { destructiveHint: false as const } : {}),
        ...(!readOnly && idempotent ? { idempotentHint: true as const } : {}),
        // Every tool but the listing ones reaches servers mcpx does not control.
        ...(readOnly ? { openWorldHint: false as const } : {}),
      },
    };
  });
}

/**
 * The op's input from a tool call's arguments: the op's own schema applied
 * (defaults filled, types checked), so the command runs as if typed.
 *
 * @throws {z.ZodError} When the arguments do not fit the op's input.
 */
export function opInputOf(tool: ServeTool, args: Record<string, unknown>): unknown {
  const input: Record<string, unknown> = { ...args };
  // A field the command line reads as a word (`--limit 5`) takes a number or a boolean as its text.
  const properties = propertiesOf(tool);
  for (const [field, value] of Object.entries(input)) {
    if (
      properties[field]?.type === "string" &&
      (typeof value === "number" || typeof value === "boolean")
    ) {
      input[field] = String(value);
    }
  }
  const parsed = tool.op.input.parse(input);
  const refused = tool.op.serve?.refuse?.(parsed);
  if (refused) throw new UsageError(`${tool.name}: ${refused}`);
  return parsed;
}

/** Each tool's input properties as JSON Schema, made once per tool (not on every call). */
const PROPERTIES = new WeakMap<z.ZodObject, Record<string, { type?: unknown }>>();

function propertiesOf(tool: ServeTool): Record<string, { type?: unknown }> {
  let properties = PROPERTIES.get(tool.input);
  if (!properties) {
    properties = (z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" })
      .properties ?? {}) as Record<string, { type?: unknown }>;
    PROPERTIES.set(tool.input, properties);
  }
  return properties;
}
