/**
 * What `mcpx run` and `mcpx exec` answer once their script has ended
 * (decision 0064). On a terminal the script's output is the process's own
 * output, written while it ran, so the op ends with the script's exit code
 * (`exit`). Under `--json` (and always under `mcpx serve`) the runner
 * collected everything into one document describing the run
 * (ops/script_outputs.ts `RunOutput`), and that document is the answer.
 *
 * @module
 */

import type { Io } from "../../core/io.ts";
import type { OutputOf } from "../../ops/op.ts";
import type { exec } from "../../ops/script_ops.ts";
import { exited, failed, ok, type Outcome } from "../../ops/outcome.ts";
import { printJsonLine } from "../json_out.ts";
import type { runScript } from "../../runner/run_script.ts";

/**
 * How a script run ended, as runner/run_script.ts `runScript` answers
 * it: the script's exit code (128 + n when signal n ended it) and, under
 * `--json`, the run's document, which nothing printed (absent on a terminal).
 */
export type ScriptEnd = Awaited<ReturnType<typeof runScript>>;

/**
 * The outcome of a script run: `exit` with its code when the script wrote
 * to the terminal; under `--json`, the run's document, `ok` when the script
 * exited 0 and `failed` when it exited 1.
 *
 * Any other exit code under `--json` (2, 130 after Ctrl-C, a `Deno.exit(3)`)
 * is the process's exit code as well, which no answered kind can carry: the
 * document is then written to `io` as the process's output, one line as
 * before, and the op ends with that code. `mcpx serve` reads no stdout of an
 * `exit`, so its tool result for such a run says only `(exit N, nothing
 * printed)`, as it did before runs answered data.
 *
 * @param io Where the document goes in that last case.
 */
export function scriptOutcome(io: Pick<Io, "out">, end: ScriptEnd): Outcome {
  const { exitCode, document } = end;
  if (document === undefined) return exited(exitCode);
  const value = document as OutputOf<typeof exec>;
  if (exitCode === 0) return ok(value);
  if (exitCode === 1) return failed(value);
  printJsonLine(io, value);
  return exited(exitCode);
}
