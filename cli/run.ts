/**
 * `mcpx run <name|path> [args…]`: a named script (nearest `.mcpx/scripts/`
 * first, spec 000 "Named scripts") or a path, run with the generated client
 * (runner/run_script.ts).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { runScript } from "../runner/run_script.ts";
import { resolveScript } from "../scripts/resolve.ts";
import { UsageError } from "../core/errors.ts";
import type { InputOf } from "../ops/op.ts";
import type { run as runOp } from "../ops/script_ops.ts";
import { scriptFlags } from "./script_flags.ts";

export async function run(
  ctx: CliContext,
  input: InputOf<typeof runOp>,
): Promise<number> {
  const { script: name, args } = input;
  if (!name) {
    throw new UsageError("name a script (`mcpx scripts` lists them) or give a path to one");
  }
  const script = await resolveScript(name, {
    cwd: ctx.cwd,
    dirs: await ctx.scriptDirs(),
    allowTsJsOverlap: await ctx.setting("plumbing.allowTsJsOverlap") === true,
  });
  return await runScript(ctx, { path: script.path, name: script.name, args }, scriptFlags(input));
}
