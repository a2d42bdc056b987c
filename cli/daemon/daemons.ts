/**
 * `mcpx daemons`: every live daemon of this user, with its configuration.
 * Records whose daemon no longer answers are removed.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { renderTable } from "../table.ts";
import { type DaemonRecord, listSockets, readDaemonRecords } from "../../wire/locate.ts";
import { probeDaemon } from "../daemon_connect.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import type { OutputOf } from "../../ops/op.ts";
import type { daemons } from "../../ops/engine_ops.ts";

/**
 * Live daemons: those of the records that answer, and those answering on a
 * socket of the state directory without a record (one that could not write
 * it, on a full disk), described by what they say of themselves.
 */
export async function liveDaemons(stateDir: string): Promise<DaemonRecord[]> {
  const records = readDaemonRecords(stateDir);
  const known = new Set(records.map((r) => r.socket));
  const unrecorded = listSockets(stateDir).filter((socket) => !known.has(socket));
  const live = await Promise.all([
    ...records.map(async (r) => (await probeDaemon(r.socket)) ? r : undefined),
    ...unrecorded.map(async (socket): Promise<DaemonRecord | undefined> => {
      const health = await probeDaemon(socket);
      return health && {
        fingerprint: health.fingerprint,
        pid: health.pid,
        socket,
        configPath: health.configPath,
        version: health.version,
        mode: health.mode,
        startedAt: health.startedAt,
      };
    }),
  ]);
  return live.filter((r): r is DaemonRecord => r !== undefined);
}

/**
 * Runs `mcpx daemons`: the live daemons (ops/engine_outputs.ts
 * `DaemonsOutput`). Reads no configuration.
 *
 * @returns `ok` with `{ daemons }`.
 */
export async function handle(ctx: CliContext): Promise<Answered<OutputOf<typeof daemons>>> {
  return ok({ daemons: await liveDaemons(ctx.paths().stateDir) });
}

/** The live daemons as a table, or a sentence when none runs. */
export function text({ daemons: live }: OutputOf<typeof daemons>): string {
  if (live.length === 0) return "No daemon is running. Any command that needs one starts it.\n";
  return renderTable(
    ["PID", "VERSION", "MODE", "STARTED", "CONFIG"],
    live.map((d) => [String(d.pid), d.version, d.mode, d.startedAt, d.configPath ?? "(none)"]),
  );
}
