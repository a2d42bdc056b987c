/**
 * The typed input of `mcpx run`/`mcpx exec` (ops/script_ops.ts) as the
 * flag-keyed {@link ScriptFlags} runner/run_script.ts reads, whose
 * problems name the flag (`--env-file: …`).
 *
 * @module
 */

import type { InputOf } from "../../ops/op.ts";
import type { exec } from "../../ops/script_ops.ts";
import type { ScriptFlags } from "../../runner/host.ts";

/** The flags `runScript` reads, by their command-line names. */
export function scriptFlags(input: Omit<InputOf<typeof exec>, "code">): ScriptFlags {
  const flags: ScriptFlags = {
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
    "hook-pre": input.hookPre,
    "hook-post": input.hookPost,
    "hook-on-error": input.hookOnError,
    "hook-on-success": input.hookOnSuccess,
  };
  for (const key of Object.keys(flags) as (keyof ScriptFlags)[]) {
    if (flags[key] === undefined) delete flags[key];
  }
  return flags;
}
