/**
 * The tools `mcpx serve` offers, generated from the op table: one tool
 * `mcpx_<op>` per op marked `serve` (ops/op.ts `ServeSpec`), its input the
 * op's own zod input narrowed to the fields a tool takes, its output schema
 * the op's output when that is an object, and its annotations the op's hints
 * (MCP 2025-06-18, "Tool annotations"). Upstream tools are never listed one
 * by one: reaching them is what `mcpx_search`, `mcpx_types`, `mcpx_call` and
 * `mcpx_exec` are for (spec 000, "mcpx speaks MCP"; decision 0044).
 *
 * @module
 */

import * as z from "zod";
import { OPS } from "../ops/table.ts";
import type { OpSpec } from "../ops/op.ts";

/** What every serve tool's name starts with. */
export const SERVE_TOOL_PREFIX = "mcpx_";

/** One tool of `mcpx serve`. */
export interface ServeTool {
  /** `mcpx_<op name>`. */
  name: string;
  /** The op the tool runs (its command module, as the CLI does). */
  op: OpSpec;
  description: string;
  /** What the tool takes: the op's input narrowed to `serve.fields`, object fields as objects. */
  input: z.ZodObject;
  /** The op's output when it is an object (MCP requires an object `outputSchema`); else absent. */
  output?: z.ZodType;
  /** MCP tool annotations from the op's hints. */
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/**
 * The serve tools of `ops`, in table order.
 *
 * @param ops The op table (default: mcpx's, ops/table.ts).
 * @throws {TypeError} When an op marked `serve` has an input that is not an
 *   object, or names a field its input lacks (a table mistake; the parity
 *   test fails first).
 */
export function serveTools(ops: readonly OpSpec[] = OPS): ServeTool[] {
  return ops.filter((op) => op.serve !== undefined).map((op) => {
    const spec = op.serve!;
    if (!(op.input instanceof z.ZodObject)) {
      throw new TypeError(`op ${op.name} is marked serve but its input is not an object`);
    }
    const shape = op.input.shape as Record<string, z.ZodType>;
    const fields = spec.fields ?? Object.keys(shape);
    const kept: Record<string, z.ZodType> = {};
    for (const field of fields) {
      const schema = shape[field];
      if (!schema) throw new TypeError(`op ${op.name}: serve names "${field}", not an input field`);
      kept[field] = spec.objects?.includes(field)
        ? z.record(z.string(), z.unknown()).optional().describe(
          schema.description ?? "a JSON object",
        )
        : schema;
    }
    const outputSchema = z.toJSONSchema(op.output, { io: "input", unrepresentable: "any" });
    return {
      name: `${SERVE_TOOL_PREFIX}${op.name.replaceAll("-", "_")}`,
      op,
      description: spec.description ?? op.description,
      input: z.object(kept),
      ...(outputSchema.type === "object" ? { output: op.output } : {}),
      annotations: {
        readOnlyHint: op.hints.readOnly,
        destructiveHint: op.hints.destructive,
        idempotentHint: op.hints.idempotent,
        // Every tool but the listing ones reaches servers mcpx does not control.
        openWorldHint: !op.hints.readOnly,
      },
    };
  });
}

/**
 * The op's input from a tool call's arguments: object fields encoded as the
 * JSON text the command parses, then the op's own schema applied (defaults
 * filled, types checked), so the command runs as if typed.
 *
 * @throws {z.ZodError} When the arguments do not fit the op's input.
 */
export function opInputOf(tool: ServeTool, args: Record<string, unknown>): unknown {
  const input: Record<string, unknown> = { ...args };
  for (const field of tool.op.serve?.objects ?? []) {
    if (input[field] !== undefined) input[field] = JSON.stringify(input[field]);
  }
  return tool.op.input.parse(input);
}
