/**
 * The typed input of `mcpx run`/`mcpx exec` as the flag-keyed options
 * scripts/runner/run_script.ts reads (its own declaration is the op's, in
 * ops/script_ops.ts).
 *
 * @module
 */

import type { InputOf } from "../ops/op.ts";
import type { exec } from "../ops/script_ops.ts";

/** The flags `runScript` reads, by their command-line names. */
export function scriptFlags(input: Omit<InputOf<typeof exec>, "code">): Record<string, unknown> {
  const flags: Record<string, unknown> = {
    export: input.export,
    env: input.env,
    "env-file": input.envFile,
    launcher: input.launcher,
    "no-launcher": input.noLauncher,
    prefix: input.prefix,
    suffix: input.suffix,
    before: input.before,
    "on-success": input.onSuccess,
    "on-error": input.onError,
    "no-capture-console": input.noCaptureConsole,
    timeout: input.timeout,
  };
  for (const key of Object.keys(flags)) if (flags[key] === undefined) delete flags[key];
  return flags;
}
