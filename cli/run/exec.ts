/**
 * `mcpx exec '<code>' [args…]` and `mcpx exec - [args…]` (the program on
 * stdin): TypeScript run like a script, with every namespace, `tools`, `log`
 * and `emit` as globals (spec 000, "Alternative input modes").
 *
 * The code becomes a module in the cache, beside its own generated client,
 * for the length of its run (runner/exec_program.ts).
 * The value of its last expression is printed, as a REPL would
 * (`everything.echo({ message: "hi" })`, or `const a = …; a.length`); see
 * runner/exec_module.ts. A streamed op like `mcpx run` (decision
 * 0064): under `--json`, and as `mcpx serve`'s `mcpx_exec`, the run's
 * document is the answer (cli/run/script_outcome.ts).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { runScript } from "../../runner/run_script.ts";
import { join } from "../../core/posix_path.ts";
import { UsageError } from "../../core/errors.ts";
import { execModule } from "../../runner/exec_module.ts";
import { INPUT_MAX_BYTES, inputLimit } from "../../config/input_limit.ts";
import { ensurePrivateDir } from "../../core/private_fs.ts";
import { writeExecProgram } from "../../runner/exec_program.ts";
import type { InputOf } from "../../ops/op.ts";
import type { exec } from "../../ops/script_ops.ts";
import { scriptFlags } from "./script_flags.ts";
import type { Outcome } from "../../ops/outcome.ts";
import { scriptOutcome } from "./script_outcome.ts";

/**
 * Runs `input.code` (or the program on stdin, for `-`) as a script.
 *
 * @returns `exit` with the script's code; under `--json`, the run's document
 *   (`ok` for exit 0, `failed` for exit 1; cli/run/script_outcome.ts).
 * @throws {UsageError} No code, empty code, or every problem found before it started.
 * @throws {InputError} A program on stdin past `input.maxBytes`.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof exec>,
): Promise<Outcome> {
  const { code: given, args } = input;
  if (given === undefined) {
    throw new UsageError(
      "give the code: `mcpx exec '<code>'`, or `mcpx exec -` to read it from stdin",
    );
  }
  const code = given === "-"
    ? await ctx.io.readStdin(
      "the program on stdin",
      inputLimit(await ctx.setting(INPUT_MAX_BYTES)),
    )
    : given;
  if (code.trim() === "") {
    throw new UsageError(given === "-" ? "stdin held no program" : "the code is empty");
  }
  const config = await ctx.config();
  const dir = join(ctx.paths().cacheDir, "exec", config.fingerprint.slice(0, 16));
  ensurePrivateDir(dir, "the programs of `mcpx exec`", { from: ctx.paths().cacheDir });
  // Removed once the run ends: the code may hold a secret (runner/exec_program.ts).
  await using program = await writeExecProgram(dir, await execModule(code));
  const end = await runScript(ctx, { path: program.path, name: "exec", args }, scriptFlags(input));
  return scriptOutcome(ctx.io, end);
}

/** `--json` prints the run's document on one line, as the runner always has. */
export const jsonLine = true;
