/**
 * The model of the command line a completion script is generated from: the
 * commands people type with their flags and positionals, the flags every
 * command takes, and which flag spellings take a value or are handed on to
 * `mcpx completion-words`. Built from the op table's plain-data rendering
 * (ops/_table.gen.ts), the global flags and the settings' flags; each shell's
 * renderer (cli/completion/completion_bash.ts, cli/completion/completion_zsh.ts,
 * cli/completion/completion_fish.ts) reads it.
 *
 * @module
 */

import { OP_ROWS } from "../../ops/_table.gen.ts";
import type { OpRow } from "../../ops/gen.ts";
import type { Completion, FlagRow } from "../../ops/op.ts";
import { GLOBAL_FLAGS } from "../../ops/global_flags.ts";
import { renderSchema } from "../../config/setting_schema.ts";

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
