/**
 * The help text of a command's flags and positionals, rendered from one
 * description each: a flag or positional that fills an input field says what
 * that field's schema description says (the same words `mcpx serve`'s tools
 * and the routes show), and the command line adds what its own syntax offers
 * for the value, from the flag's declared {@link Syntax}, its `bare` value and
 * whether it repeats. A flag that only sets a setting takes the setting's
 * `help` (config/settings.ts) and its default.
 *
 * ops/gen.ts writes the rendered text into ops/_table.gen.ts, so the CLI's
 * help, completion scripts and man page read it with no zod loaded;
 * docs/cli.md (ops/docs_gen.ts) renders from here too.
 *
 * @module
 */

import { settingDeclaration } from "../config/settings.ts";
import type { ArgRow, CliArg, CliFlag, CliRow, CliSpec, FlagRow, Syntax } from "./op.ts";

/** The input fields' descriptions, as an op's input JSON Schema's `properties` hold them. */
export type FieldDescriptions = Readonly<Record<string, { description?: string }>>;

/**
 * What the command line accepts for each {@link Syntax}, in words for help.
 * `--name=` stands for a flag whose value must be joined to it (`bare`).
 */
function syntaxHint(syntax: Syntax, joined?: string): string {
  switch (syntax) {
    case "duration":
      return joined ? `e.g. ${joined}30s` : "e.g. 30s, 2m";
    case "duration-or-time":
      return "e.g. 1h, 2d, or 2026-10-01T12:00";
    case "json-or-file":
      return "@file reads a file, - reads stdin";
    case "stdin":
      return "- reads stdin";
  }
}

/** `text` with the hints in parentheses, inside the ones it ends with if it does. */
function withHints(text: string, hints: readonly string[]): string {
  if (!hints.length) return text;
  return text.endsWith(")")
    ? `${text.slice(0, -1)}; ${hints.join("; ")})`
    : `${text} (${hints.join("; ")})`;
}

function described(where: string, field: string, fields: FieldDescriptions): string {
  const description = fields[field]?.description;
  if (!description) {
    throw new TypeError(`${where}: input field "${field}" has no description (.describe(…))`);
  }
  return description;
}

/**
 * One flag's help.
 *
 * @param op Names the op in errors.
 * @param name The flag's long spelling, without dashes (`timeout`).
 * @param flag The flag as declared.
 * @param fields The op's input fields' descriptions.
 * @returns Its field's description (else its setting's help and default, else
 *   its own `help`), with the command line's hints in parentheses.
 * @throws {TypeError} When a flag with a field declares its own help too, or
 *   its field has no description, or a flag has neither field, setting nor help.
 * @example
 * ```ts
 * import { flagHelp } from "./cli_help.ts";
 * const help = flagHelp("call", "timeout", { field: "t", type: "string", syntax: "duration" }, {
 *   t: { description: "cancel the call after this long" },
 * });
 * if (help !== "cancel the call after this long (e.g. 30s, 2m)") throw new Error(help);
 * ```
 */
export function flagHelp(
  op: string,
  name: string,
  flag: CliFlag,
  fields: FieldDescriptions,
): string {
  const where = `${op} --${name}`;
  const hints = [
    ...(flag.syntax
      ? [syntaxHint(flag.syntax, flag.bare !== undefined ? `--${name}=` : undefined)]
      : []),
    ...(flag.bare !== undefined ? [`--${name} alone: ${flag.bare}`] : []),
    ...(flag.multiple ? ["repeatable"] : []),
  ];
  if (flag.field !== undefined) {
    if (flag.help !== undefined) {
      throw new TypeError(
        `${where}: fills the field "${flag.field}", whose description is its help; drop its own`,
      );
    }
    return withHints(described(where, flag.field, fields), hints);
  }
  if (flag.help !== undefined) return withHints(flag.help, hints);
  if (flag.setting === undefined) throw new TypeError(`${where}: has no field, setting or help`);
  const setting = settingDeclaration(flag.setting);
  // Lower-cased to read as the rest do, but not an acronym ("TCP port …").
  const help = /^[A-Z][A-Z]/.test(setting.help)
    ? setting.help
    : setting.help[0].toLowerCase() + setting.help.slice(1);
  // The setting's help may name its flag, which the help line already shows.
  const spelled = new RegExp(`(?:; |\\s?\\()--${name}\\)`, "g");
  const text = help.replace(spelled, (m) => m.startsWith(";") ? ")" : "");
  const shown = setting.default !== "" && !(setting.type === "bool" && setting.default === "false");
  return withHints(text, [...hints, ...(shown ? [`default ${setting.default}`] : [])]);
}

/**
 * One positional's help: its field's description, with the command line's hint.
 *
 * @throws {TypeError} When its field has no description.
 */
export function argHelp(where: string, arg: CliArg, fields: FieldDescriptions): string {
  return withHints(
    described(where, arg.field, fields),
    arg.syntax ? [syntaxHint(arg.syntax)] : [],
  );
}

/**
 * A command with every flag's and positional's help rendered.
 *
 * @param op Names the op in errors.
 * @param cli The command as declared.
 * @param fields The op's input fields' descriptions.
 * @throws {TypeError} As {@link flagHelp} and {@link argHelp} do.
 */
export function cliRow(op: string, cli: CliSpec, fields: FieldDescriptions): CliRow {
  const { args, flags, ...rest } = cli;
  return {
    ...rest,
    ...(args
      ? {
        args: args.map((a): ArgRow => ({
          ...a,
          help: argHelp(`${op} <${a.name}>`, a, fields),
        })),
      }
      : {}),
    ...(flags
      ? {
        flags: Object.fromEntries(
          Object.entries(flags).map(([name, f]): [string, FlagRow] => [
            name,
            { ...f, help: flagHelp(op, name, f, fields) },
          ]),
        ),
      }
      : {}),
  };
}

/**
 * A field's description as an MCP tool's input shows it (cli/serve/serve_tools.ts):
 * the description, with the value syntax a tool's string input shares with
 * the command line (durations); `@file` and `-` name the caller's disk and
 * stdin, which a tool's caller does not have.
 *
 * @param description The field's one description.
 * @param syntax What the op's flag for the field declares, if anything.
 */
export function toolFieldHelp(description: string, syntax: Syntax | undefined): string {
  return syntax === "duration" || syntax === "duration-or-time"
    ? withHints(description, [syntaxHint(syntax)])
    : description;
}
