/**
 * Argv words and parsed flag values → an op's input object, from the op's
 * row in the table (ops/_table.gen.ts): positionals fill the fields the
 * command's `args` name, in order (a variadic one takes the rest); flags fill
 * the fields they declare; words are read as their field's JSON type. Flags
 * that only set a setting are not input (the context resolves settings).
 *
 * @module
 */

import { UsageError } from "../core/errors.ts";
import type { FieldRow, OpRow } from "../ops/gen.ts";

/**
 * The input of `command` from its words (after the command word) and the
 * parsed flag values (keyed by flag name).
 *
 * @throws {UsageError} For more words than the command takes, a missing
 *   required positional, or a word that is not of its field's type.
 */
export function inputOf(
  command: OpRow,
  words: string[],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const cli = command.cli!;
  const input: Record<string, unknown> = {};
  const args = cli.args ?? [];
  let i = 0;
  for (const arg of args) {
    if (arg.variadic) {
      input[arg.field] = words.slice(i).map((w) => read(command, arg.field, w, true));
      i = words.length;
      break;
    }
    if (i < words.length) input[arg.field] = read(command, arg.field, words[i++], false);
    else if (!arg.optional) {
      throw new UsageError(`\`mcpx ${cli.command}\` needs <${arg.name}>`);
    }
  }
  if (i < words.length) {
    const extra = words.slice(i).map((a) => JSON.stringify(a)).join(" ");
    throw new UsageError(
      `\`mcpx ${cli.command}\` takes ${
        args.length === 0 ? "no arguments" : `at most ${args.length}`
      }; unexpected ${extra}`,
    );
  }
  for (const [flag, spec] of Object.entries(cli.flags ?? {})) {
    const value = values[flag];
    if (spec.field === undefined || value === undefined) continue;
    input[spec.field] = Array.isArray(value)
      ? value.map((v) => read(command, spec.field!, String(v), true))
      : typeof value === "boolean"
      ? value
      : read(command, spec.field, String(value), false);
  }
  return input;
}

/** One word as its field's type. */
function read(command: OpRow, field: string, word: string, item: boolean): unknown {
  const row: FieldRow | undefined = command.fields[field];
  const type = item && row?.type === "array" ? "string" : row?.type;
  if (type === "integer" || type === "number") {
    const n = Number(word);
    if (word.trim() === "" || !Number.isFinite(n) || (type === "integer" && !Number.isInteger(n))) {
      throw new UsageError(
        `${field} must be ${type === "integer" ? "a whole number" : "a number"}, got ${
          JSON.stringify(word)
        }`,
      );
    }
    return n;
  }
  if (row?.enum && !row.enum.includes(word)) {
    throw new UsageError(
      `${field} must be one of ${row.enum.join(", ")}, got ${JSON.stringify(word)}`,
    );
  }
  return word;
}
