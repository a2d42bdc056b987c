/**
 * `mcpx restart <namespace> [--session <key>]`: stop every instance of a
 * namespace, or only one session's; the next call starts a fresh one.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { UsageError } from "../../core/errors.ts";
import { findNamespace } from "../../discovery/view.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { restart } from "../../ops/engine_ops.ts";

/**
 * Stops every instance of one namespace, or only `--session`'s, through the
 * running daemon; with none running, nothing (no daemon is started to stop nothing).
 *
 * @returns `ok` with `{ namespace, session?, stopped }`.
 * @throws {UsageError} Without exactly one namespace, or with an empty `--session`.
 * @throws {NotFoundError} For a namespace the configuration lacks (with suggestions).
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof restart>,
): Promise<Answered<OutputOf<typeof restart>>> {
  const names = input.namespaces;
  if (names.length !== 1) throw new UsageError("name one namespace: `mcpx restart <namespace>`");
  // Only an explicit --session narrows the restart: MCPX_SESSION_ID (in
  // ctx.session) is the caller's ambient session, not a choice of what to stop.
  const session = ctx.sessionFlag;
  if (session === "") throw new UsageError("--session needs a key: `--session <key>`");
  const { namespaces, disabled } = await ctx.namespaces({ listMissing: false, schemas: false });
  findNamespace(namespaces, names[0], disabled); // an unknown name is an error with suggestions
  // With no daemon running there is nothing to restart: do not start one to stop nothing.
  const { probeDaemon } = await import("../daemon_connect.ts");
  const socket = await ctx.existingDaemonSocket();
  const stopped = (await probeDaemon(socket))
    ? (await ctx.request<{ stopped: number }>("restart", {
      namespace: names[0],
      ...(session === undefined ? {} : { onlySession: session }),
    })).stopped
    : 0;
  return ok({ namespace: names[0], ...(session === undefined ? {} : { session }), stopped });
}

/** `--json` prints the acknowledgement on one line. */
export const jsonLine = true;

/** `fs: stopped 1 instance; the next call starts a fresh one` (or of one session). */
export function text({ namespace, session, stopped }: OutputOf<typeof restart>): string {
  const plural = stopped === 1 ? "" : "s";
  return session === undefined
    ? `${namespace}: stopped ${stopped} instance${plural}; the next call starts a fresh one\n`
    : `${namespace}: stopped ${stopped} instance${plural} of session ${session}; ` +
      `its next call starts a fresh one\n`;
}
