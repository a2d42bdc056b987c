/**
 * An op the daemon runs (`where: "daemon"` with a command: `call`, `search`), asked
 * from the command line with its input as parsed: no command maps its fields
 * onto a route's by hand. What is sent follows the op's one declaration
 * (ops/_table.gen.ts rows, from ops/field_meta.ts):
 *
 * - every input field given, except those only the command line has
 *   (`x-surface: cli`: how it prints, a server named on the command line);
 * - a field left out that stands for a setting (`x-setting`) as the
 *   caller's setting, so the daemon answers with the caller's `tasks.ttl`
 *   or `search.limit`, not its own;
 * - the caller's own fields, added by the context (cli/context_daemon.ts).
 *
 * Names are the daemon's to resolve. Only when no daemon answers, before
 * one is started, is each name the command line gave checked against the
 * configuration (a positional that completes to a namespace or a tool), so
 * a typo starts no daemon (issue 24).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import type { DaemonRequestOptions } from "./context_daemon.ts";
import type { OpRow } from "../ops/gen.ts";
import { OP_ROWS } from "../ops/_table.gen.ts";
import { splitTarget } from "../ops/tool_target.ts";

/** The row of op `name`. @throws {TypeError} For a name the table lacks (a programming error). */
function rowOf(name: string): OpRow {
  const row = OP_ROWS.find((r) => r.name === name);
  if (!row) throw new TypeError(`no op named ${name}`);
  return row;
}

/**
 * The route body of op `name` for `input`, as the module example says.
 *
 * @param input The op's input as the command line (or `serve`) parsed it.
 */
export async function opBody(
  ctx: CliContext,
  name: string,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const [field, row] of Object.entries(rowOf(name).fields)) {
    if (row.surface === "cli") continue;
    const value = input[field] ??
      (row.setting
        ? await ctx.setting(row.setting as Parameters<CliContext["setting"]>[0])
        : undefined);
    if (value !== undefined) body[field] = value;
  }
  return body;
}

/**
 * Refuses a name the configuration lacks, as discovery words it (with the
 * nearest names): each positional of op `name` that completes to a
 * namespace or a tool.
 *
 * @throws {NotFoundError} For a namespace the configuration does not show.
 * @throws {UsageError} For a tool name that is not `namespace.tool`.
 */
async function checkNames(
  ctx: CliContext,
  name: string,
  input: Record<string, unknown>,
): Promise<void> {
  for (const arg of rowOf(name).cli?.args ?? []) {
    const value = input[arg.field];
    if (typeof value !== "string") continue;
    if (arg.complete === "tool") await ctx.configuredServer(splitTarget(value).namespace);
    else if (arg.complete === "namespace") await ctx.configuredServer(value);
  }
}

/**
 * Sends op `name` to the daemon (started on demand) with {@link opBody}.
 *
 * @param extra Fields of the caller's own beside the input.
 * @param options `onNotification`: told each notification of a call's server, in order
 *   (cli/context_daemon.ts `DaemonRequestOptions`).
 * @returns The route's result.
 * @throws What {@link checkNames} throws, before a daemon would be started;
 *   the daemon's own errors; those of `CliContext.request`.
 */
export async function requestOp<T>(
  ctx: CliContext,
  name: string,
  input: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  options: Pick<DaemonRequestOptions, "onNotification"> = {},
): Promise<T> {
  return await ctx.request<T>(name, { ...await opBody(ctx, name, input), ...extra }, {
    beforeStart: () => checkNames(ctx, name, input),
    ...options,
  });
}

/**
 * Sends op `name` with {@link opBody} to this configuration's daemon only if
 * one is running; undefined when none is, and the caller runs the op's
 * handler itself (`search` on the cache's files).
 *
 * @param options `onExtra`: told what a person's rendering adds.
 * @throws the daemon's own errors; those of `CliContext.requestRunning`.
 */
export async function requestRunningOp<T>(
  ctx: CliContext,
  name: string,
  input: Record<string, unknown>,
  options: { onExtra?: (extra: Record<string, unknown>) => void } = {},
): Promise<T | undefined> {
  return await ctx.requestRunning<T>(name, await opBody(ctx, name, input), options);
}
