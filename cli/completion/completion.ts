/**
 * `mcpx completion bash|zsh|fish`: a completion script generated from the op
 * table's plain-data rendering (ops/_table.gen.ts, so no zod is loaded), the
 * global flags (ops/global_flags.ts) and the settings' flags
 * (config/setting_schema.ts). Hidden commands and plumbing settings are left
 * out. What a positional or a flag value completes to is the table's
 * `complete`: a list of words is written into the script, `file` is the
 * shell's own file completion, and names only the schema cache or the state
 * files know (`namespace`, `tool`, `namespace-or-tool`, `script`, `session`,
 * `setting`) are asked of `mcpx completion-words <kind>` at <Tab>, which
 * starts no server and no daemon (cli/completion/completion_words.ts).
 *
 * Each shell's script is rendered by its own module from the
 * {@link CompletionModel} cli/completion/completion_model.ts builds.
 *
 * @module
 */

import type { Completion } from "../../ops/op.ts";
import type { completion } from "../../ops/meta_ops.ts";
import type { InputOf } from "../../ops/op.ts";
import type { CliContext } from "../context.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import { type CompletionModel, completionModel } from "./completion_model.ts";

/**
 * The completion script for `shell`.
 *
 * @param shell `bash`, `zsh` or `fish`.
 * @param model What to complete (default: {@link completionModel} of the table).
 * @returns The script's text, ending in a newline.
 */
export async function completionScript(
  shell: InputOf<typeof completion>["shell"],
  model: CompletionModel = completionModel(),
): Promise<string> {
  switch (shell) {
    case "bash":
      return (await import("./completion_bash.ts")).bashScript(model);
    case "zsh":
      return (await import("./completion_zsh.ts")).zshScript(model);
    case "fish":
      return (await import("./completion_fish.ts")).fishScript(model);
  }
}

/** What `mcpx completion` answers: the shell and its script. */
export interface CompletionOutput {
  shell: InputOf<typeof completion>["shell"];
  /** The script's text, ending in a newline. */
  script: string;
}

/**
 * Answers `mcpx completion <shell>`: `{ shell, script }`; the terminal gets
 * the script itself, `--json` the document on one line.
 */
export async function handle(
  _ctx: CliContext,
  input: InputOf<typeof completion>,
): Promise<Answered<CompletionOutput>> {
  return ok({ shell: input.shell, script: await completionScript(input.shell) });
}

/** The script itself, for a shell to source. */
export function text({ script }: CompletionOutput): string {
  return script;
}

/** `--json` prints `{ "shell", "script" }` on one line. */
export const jsonLine = true;

/** Only `--json` itself asks for the document: a shell sourcing the script with MCPX_OUTPUT_JSON exported still gets one. */
export const jsonFlagOnly = true;

/**
 * The names asked of `mcpx completion-words` for a completion: the kinds the
 * shell cannot work out itself. `file` and word lists are the shell's.
 */
export function namesKind(complete: Completion | undefined): string | undefined {
  return typeof complete === "string" && complete !== "file" ? complete : undefined;
}
