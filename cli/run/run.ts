/**
 * `mcpx run <name|path> [args…]`: a named script (nearest `.mcpx/scripts/`
 * first, spec 000 "Named scripts") or a path, run with the generated client
 * (runner/run_script.ts). A streamed op (decision 0064): on a
 * terminal the script's output is the process's; under `--json` the run's
 * document is the answer (cli/run/script_outcome.ts).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { runScript } from "../../runner/run_script.ts";
import { resolveScript } from "../../scripts/resolve.ts";
import { UsageError } from "../../core/errors.ts";
import type { InputOf } from "../../ops/op.ts";
import type { run as runOp } from "../../ops/script_ops.ts";
import { scriptFlags } from "./script_flags.ts";
import type { Outcome } from "../../ops/outcome.ts";
import { scriptOutcome } from "./script_outcome.ts";

/**
 * Runs the script `input.script` names with `input.args`.
 *
 * @returns `exit` with the script's code; under `--json`, the run's document
 *   (`ok` for exit 0, `failed` for exit 1; cli/run/script_outcome.ts).
 * @throws {UsageError} No script named, or every problem found before it started.
 * @throws {NotFoundError} No script by that name.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof runOp>,
): Promise<Outcome> {
  const { script: name, args } = input;
  if (!name) {
    throw new UsageError("name a script (`mcpx scripts` lists them) or give a path to one");
  }
  const script = await resolveScript(name, {
    cwd: ctx.cwd,
    dirs: await ctx.scriptDirs(),
    allowTsJsOverlap: await ctx.setting("plumbing.allowTsJsOverlap") === true,
  });
  const end = await runScript(
    ctx,
    { path: script.path, name: script.name, args },
    scriptFlags(input),
  );
  return scriptOutcome(ctx.io, end);
}

/** `--json` prints the run's document on one line, as the runner always has. */
export const jsonLine = true;
