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
 * starts no server and no daemon (cli/completion_words.ts).
 *
 * Each shell's script is rendered by its own module from the
 * {@link CompletionModel} built here.
 *
 * @module
 */

import { OP_ROWS } from "../ops/_table.gen.ts";
import type { OpRow } from "../ops/gen.ts";
import type { Completion, FlagRow } from "../ops/op.ts";
import { GLOBAL_FLAGS } from "../ops/global_flags.ts";
import type { completion } from "../ops/meta_ops.ts";
import type { InputOf } from "../ops/op.ts";
import { renderSchema } from "../config/setting_schema.ts";
import type { CliContext } from "./context.ts";
import { type Answered, ok } from "../ops/outcome.ts";

/** One flag as a completion script offers it. */
export interface FlagWord {
  /** The long spelling without dashes (`limit`). */
  long: string;
  /** The one-letter alias (`n`). */
  short?: string;
  /** Takes a value (the next word, or after `=`). */
  value: boolean;
  /** May be given more than once. */
  multiple: boolean;
  /** One line of help (zsh and fish show it). */
  help: string;
  /** What the value completes to; absent: free text. */
  complete?: Completion;
}

/** One positional as a completion script offers it. */
export interface ArgWord {
  /** Its name in usage lines. */
  name: string;
  /** Takes every remaining word. */
  variadic: boolean;
  complete?: Completion;
}

/** One command as a completion script offers it. */
export interface CommandWords {
  command: string;
  summary: string;
  /** The command's own flags. */
  flags: FlagWord[];
  args: ArgWord[];
  /** Flags end at the first positional (`mcpx run script --flag`): what follows is a script's. */
  stopAtPositional: boolean;
}

/** Everything a completion script is generated from. */
export interface CompletionModel {
  /** The commands people type, in help order (hidden ones left out). */
  commands: CommandWords[];
  /**
   * Flags every command takes: the global flags, then each setting's flag
   * spellings (not plumbing ones, and not a spelling a command declares as
   * its own, such as `--runtime`).
   */
  global: FlagWord[];
  /**
   * Every flag spelling that takes a value, dashes included (`--config`,
   * `-n`), plumbing settings' too: the scripts skip the word after one when
   * they count positionals.
   */
  valued: string[];
  /**
   * Flags handed on to `mcpx completion-words`, since they choose the
   * configuration, the profiles or the directories names are read from.
   */
  forward: string[];
}

function flagWord(long: string, flag: FlagRow): FlagWord {
  return {
    long,
    ...(flag.short ? { short: flag.short } : {}),
    // A flag whose value may be left out takes it only joined (`--wait=30s`): the next word is not its.
    value: flag.type === "string" && flag.bare === undefined,
    multiple: flag.multiple === true,
    help: flag.help,
    ...(flag.complete ? { complete: flag.complete } : {}),
  };
}

/**
 * The model of the command line, from the op table's rows.
 *
 * @param rows The ops as plain data (default: ops/_table.gen.ts).
 * @returns Commands, global flags, valued and forwarded flag spellings.
 */
export function completionModel(rows: readonly OpRow[] = OP_ROWS): CompletionModel {
  const commands: CommandWords[] = rows.flatMap((op) =>
    op.cli && !op.cli.hidden
      ? [{
        command: op.cli.command,
        summary: op.cli.summary,
        flags: Object.entries(op.cli.flags ?? {}).map(([long, f]) => flagWord(long, f)),
        args: (op.cli.args ?? []).map((a) => ({
          name: a.name,
          variadic: a.variadic === true,
          ...(a.complete ? { complete: a.complete } : {}),
        })),
        stopAtPositional: op.cli.stopAtPositional === true,
      }]
      : []
  );
  const global = Object.entries(GLOBAL_FLAGS).map(([long, f]) => flagWord(long, f));
  const own = new Set(commands.flatMap((c) => c.flags.map((f) => f.long)));
  const valued = new Set<string>();
  const forward = new Set<string>(["--config"]);
  for (const [long, f] of Object.entries(GLOBAL_FLAGS)) {
    if (f.setting?.startsWith("profiles.") || f.setting?.startsWith("paths.")) {
      forward.add(`--${long}`);
    }
  }
  for (const setting of renderSchema({ plumbing: true })) {
    const value = setting.type !== "bool";
    for (const spelling of setting.flags.filter((s) => s.startsWith("--"))) {
      if (value) valued.add(spelling);
      if (/^(profiles|paths)\./.test(setting.name)) forward.add(spelling);
      const long = spelling.slice(2);
      if (setting.plumbing || long in GLOBAL_FLAGS || own.has(long)) continue;
      global.push({
        long,
        value,
        multiple: false,
        help: setting.help,
        ...(setting.values
          ? { complete: setting.values }
          : /^paths?$/.test(setting.type)
          ? { complete: "file" as const }
          : {}),
      });
    }
  }
  for (const f of [...global, ...commands.flatMap((c) => c.flags)]) {
    if (!f.value) continue;
    valued.add(`--${f.long}`);
    if (f.short) valued.add(`-${f.short}`);
  }
  return { commands, global, valued: [...valued], forward: [...forward] };
}

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
