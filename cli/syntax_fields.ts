/**
 * What the command line's syntax offers for a field (ops/op.ts `Syntax`),
 * applied once, before the op runs (cli/command_line.ts), to the fields
 * whose declared type is not the text typed, so a handler gets the value the
 * op declares on every surface (`serve` passes it as is):
 *
 * - `json-or-file` on an object field: the JSON text itself, `@file` for a
 *   file's text, or `-` for stdin, each bounded by `input.maxBytes`, read
 *   into the object.
 * - `duration` on a field that takes ms or a duration (ops/field_meta.ts
 *   `DURATION_MS`): read into ms here, so a bad value is a usage error before
 *   anything starts.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { InputError, UsageError } from "../core/errors.ts";
import { readBoundedFile } from "../core/bounded_read.ts";
import { INPUT_MAX_BYTES, inputLimit } from "../config/input_limit.ts";
import type { OpRow } from "../ops/gen.ts";
import { parseTimeoutFlag } from "../config/timeout_flag.ts";

/**
 * The object `input` names; `{}` when it is undefined.
 *
 * @param input JSON text, `@<file>` or `-`.
 * @throws {UsageError} For text that is not JSON or not an object, an empty
 *   `@`, or a file that cannot be read; {InputError} past `input.maxBytes`.
 */
export async function readJsonObject(
  ctx: CliContext,
  input: string | undefined,
): Promise<Record<string, unknown>> {
  if (input === undefined) return {};
  let text = input;
  let source = "";
  if (input === "-") {
    const limit = inputLimit(await ctx.setting(INPUT_MAX_BYTES));
    text = await ctx.io.readStdin("the arguments on stdin", limit);
    source = "stdin";
  } else if (input.startsWith("@")) {
    const path = input.slice(1);
    if (path === "") {
      throw new UsageError(`"@" names no file; write @<file>, e.g. @args.json, or - for stdin`);
    }
    const limit = inputLimit(await ctx.setting(INPUT_MAX_BYTES));
    try {
      const full = path.startsWith("/") ? path : `${ctx.cwd}/${path}`;
      text = new TextDecoder().decode(
        await readBoundedFile(full, `the arguments file ${path}`, limit),
      );
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new UsageError(`cannot read arguments from ${path}: ${(error as Error).message}`);
    }
    source = path;
  }
  // Editors on Windows start files with a UTF-8 byte order mark; JSON.parse refuses it.
  if (source) text = text.replace(/^\uFEFF/, "");
  if (source && text.trim() === "") {
    throw new UsageError(
      `${source === "stdin" ? "stdin" : source} held no arguments; give a JSON object such as ` +
        `'{"message":"hi"}', or leave the argument out for {}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `the arguments${source ? ` in ${source}` : ""} are not JSON (${
        (error as Error).message
      }); pass an object such as '{"message":"hi"}'`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`the arguments must be a JSON object, got ${text.trim().slice(0, 60)}`);
  }
  return value as Record<string, unknown>;
}

/**
 * `input` with each field of `command` that the command line gives in a
 * syntax of its own read into the field's declared type (the module says
 * which).
 *
 * @throws {UsageError} As {@link readJsonObject}, and for a duration
 *   `parseTimeoutFlag` refuses.
 */
export async function readSyntaxFields(
  ctx: CliContext,
  command: OpRow,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const cli = command.cli;
  const given = [...(cli?.args ?? []), ...Object.values(cli?.flags ?? {})];
  for (const { field, syntax } of given) {
    const value = input[field ?? ""];
    if (!field || typeof value !== "string") continue;
    const type = command.fields[field]?.type;
    if (syntax === "json-or-file" && type === "object") {
      input[field] = await readJsonObject(ctx, value);
    } else if (syntax === "duration" && type === "unknown") {
      input[field] = parseTimeoutFlag(value);
    }
  }
  return input;
}
