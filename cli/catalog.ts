/**
 * `mcpx catalog [--budget N] [--bias words]`: every namespace plus as many
 * signatures as fit the token budget (spec 000, "Context-budgeted catalog";
 * the op is ops/catalog.ts).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { printJson } from "./json_out.ts";
import { handle } from "../ops/catalog.ts";
import type { InputOf } from "../ops/op.ts";
import type { catalog } from "../ops/discovery_ops.ts";

/**
 * Runs `mcpx catalog`: the block, or with `--json` the block and its counts.
 *
 * @returns Exit code 0.
 */
export async function run(ctx: CliContext, input: InputOf<typeof catalog>): Promise<number> {
  const output = await handle(input, ctx);
  if (await ctx.json()) {
    printJson(ctx.io, output);
    return 0;
  }
  ctx.io.out(output.text.endsWith("\n") ? output.text : output.text + "\n");
  return 0;
}
