/**
 * The `status` op: each server's live instances (pid, key, holders, uptime,
 * calls, last error) and, for a server that failed, the full message and
 * stderr tail (spec 000, "Honest failure reporting"). Starts no daemon: with
 * none running, the rows come from the schema cache alone (`daemon: false`).
 * A pool that serves several namespaces (an alias with its target's leasing)
 * keeps one row per namespace, each with `sharedWith` naming the others.
 * When the daemon's socket directory is refused (not the user's alone), the
 * output says so in `refused` and rows that would be `idle` are `refused`.
 *
 * @module
 */

import type { InputOf, OutputOf } from "./op.ts";
import type { status } from "./engine_ops.ts";
import type { OpHost } from "./host.ts";
import { listingOf } from "../config/types.ts";
import { endpointUnavailable, requestDaemon } from "../wire/daemon_request.ts";
import { DaemonUnavailableError } from "../core/errors.ts";
import { UnsafeDirectoryError } from "../core/private_fs.ts";
import { markSharedPools, type StatusRow, statusRow } from "../engine/status_row.ts";
import type { DroppedRecords } from "../logs/writer.ts";
import { configRedactor } from "../config/secrets.ts";
import { own } from "../core/own.ts";

/** What `status` answers (ops/engine_outputs.ts `StatusOutput`). */
export type StatusOutput = OutputOf<typeof status>;

/**
 * The servers' state, from the running daemon when one answers.
 *
 * @param _input The op's input (none).
 * @param host The configuration, the schema cache and the daemon's socket.
 * @returns Whether a daemon answered, the configuration file, one row per server, and the
 *   records the daemon could not write, when any.
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function handle(_input: InputOf<typeof status>, host: OpHost): Promise<StatusOutput> {
  const config = await host.config();
  let rows: StatusRow[] | undefined;
  let logDropped: (DroppedRecords & { dir: string }) | undefined;
  let refused: StatusOutput["refused"];
  // With an endpoint set, that daemon is the one asked, and its silence is an error: the files
  // here describe another machine's daemon no more than they describe none.
  const endpoint = await host.endpoint();
  const token = await host.endpointToken();
  const options = { timeoutMs: 5000, ...(token ? { token } : {}) };
  try {
    const socket = await host.existingDaemonSocket();
    rows = await requestDaemon<StatusRow[]>(socket, "status", {}, options);
    ({ logDropped } = await requestDaemon<{ logDropped?: DroppedRecords & { dir: string } }>(
      socket,
      "health",
      {},
      options,
    ));
  } catch (error) {
    if (endpoint) {
      throw error instanceof DaemonUnavailableError ? endpointUnavailable(endpoint, error) : error;
    }
    // A socket directory refused (core/private_dir_rule.ts): no daemon can be reached or started
    // there, which is not `idle`; said with the directory's problem and its fix.
    if (error instanceof UnsafeDirectoryError) {
      refused = { directory: error.path, message: error.message };
    }
    // No daemon (or it went quiet): the files say what they can.
  }
  const daemon = rows !== undefined;
  const cache = await host.schemaCache();
  if (!rows) {
    const redactor = configRedactor(config, host.env);
    rows = config.servers.map((spec) =>
      statusRow(spec, own(cache?.servers, listingOf(spec).name), undefined, redactor)
    );
  }
  if (refused) {
    for (const row of rows) if (row.state === "idle") row.state = "refused";
  }
  markSharedPools(rows);
  return {
    daemon,
    config: config.path,
    servers: rows,
    ...(logDropped ? { logDropped } : {}),
    ...(refused ? { refused } : {}),
  };
}
