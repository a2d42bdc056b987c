/**
 * `mcpx scripts`: every named script reachable from here — NAME DESCRIPTION
 * PATH — nearest first for each name, a farther copy marked `(shadowed)` and
 * a `.ts` beside a `.js` marked `(conflict)` (a run refuses both). `--json`
 * prints the op's output (ops/scripts.ts): `{ dirs, scripts: [{ name,
 * description, path, shadowedBy?, conflictsWith? }] }`.
 *
 * Source: spec 000, "Named scripts", "Search paths".
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { TextView } from "../commands.ts";
import { renderTable, truncate } from "../table.ts";
import { handle as scriptsOf, type ScriptsOutput } from "../../ops/scripts.ts";
import type { Answered } from "../../ops/outcome.ts";
import type { InputOf } from "../../ops/op.ts";
import type { scripts as scriptsOp } from "../../ops/discovery_ops.ts";

/** What only the terminal rendering of `scripts` shows: where a first script would go. */
export interface ScriptsExtra {
  /** The working directory (its `.mcpx/scripts/` is named when there are no scripts). */
  cwd: string;
}

/**
 * Runs `mcpx scripts`: the op's listing (ops/scripts.ts).
 *
 * @param ctx The command's context (`paths.scripts`, cwd, env).
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof scriptsOp>,
): Promise<Answered<ScriptsOutput>> {
  const extra: ScriptsExtra = { cwd: ctx.cwd };
  return { kind: "ok", value: await scriptsOf(input, ctx), extra };
}

/** The scripts as a table with what its marks mean, or where to put a first one. */
export function text(output: ScriptsOutput, view: TextView): string {
  const { scripts } = output;
  if (scripts.length === 0) {
    const { cwd } = view.extra as ScriptsExtra;
    return `No scripts found. Put one in ${cwd}/.mcpx/scripts/<name>.ts (this directory and ` +
      `below) or ~/.config/mcpx/scripts/<name>.ts (everywhere).\n`;
  }
  const width = Math.max(30, Math.min(60, view.columns - 70));
  let out = renderTable(
    ["NAME", "DESCRIPTION", "PATH"],
    scripts.map((s) => [
      s.name + (s.conflictsWith ? " (conflict)" : s.shadowedBy ? " (shadowed)" : ""),
      truncate(s.description, width),
      s.path,
    ]),
  );
  const shadowed = scripts.some((s) => s.shadowedBy);
  const conflict = scripts.find((s) => s.conflictsWith);
  if (shadowed) out += "\n(shadowed): a nearer script of the same name runs instead.\n";
  if (conflict) {
    out += `${shadowed ? "" : "\n"}(conflict): ${conflict.name}.ts and ${conflict.name}.js sit ` +
      `side by side; \`mcpx run ${conflict.name}\` refuses both until one is removed.\n`;
  }
  return out;
}
