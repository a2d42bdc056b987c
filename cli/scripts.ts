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

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";
import { printJson } from "./json_out.ts";
import { handle } from "../ops/scripts.ts";
import type { InputOf } from "../ops/op.ts";
import type { scripts as scriptsOp } from "../ops/discovery_ops.ts";

/**
 * Runs `mcpx scripts`: the op's listing (ops/scripts.ts), as JSON or as a table.
 *
 * @param ctx The command's context (`paths.scripts`, cwd, env, output).
 * @returns Exit code 0.
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function run(ctx: CliContext, input: InputOf<typeof scriptsOp>): Promise<number> {
  const output = await handle(input, ctx);
  if (await ctx.json()) {
    printJson(ctx.io, output);
    return 0;
  }
  const { scripts } = output;
  if (scripts.length === 0) {
    ctx.io.out(
      `No scripts found. Put one in ${ctx.cwd}/.mcpx/scripts/<name>.ts (this directory and below) ` +
        `or ~/.config/mcpx/scripts/<name>.ts (everywhere).\n`,
    );
    return 0;
  }
  const width = Math.max(30, Math.min(60, (Number(ctx.env.COLUMNS) || 120) - 70));
  ctx.io.out(renderTable(
    ["NAME", "DESCRIPTION", "PATH"],
    scripts.map((s) => [
      s.name + (s.conflictsWith ? " (conflict)" : s.shadowedBy ? " (shadowed)" : ""),
      truncate(s.description, width),
      s.path,
    ]),
  ));
  const shadowed = scripts.some((s) => s.shadowedBy);
  const conflict = scripts.find((s) => s.conflictsWith);
  if (shadowed) {
    ctx.io.out("\n(shadowed): a nearer script of the same name runs instead.\n");
  }
  if (conflict) {
    ctx.io.out(
      `${shadowed ? "" : "\n"}(conflict): ${conflict.name}.ts and ${conflict.name}.js sit side ` +
        `by side; \`mcpx run ${conflict.name}\` refuses both until one is removed.\n`,
    );
  }
  return 0;
}
