/**
 * The handoff record of `mcpx daemon upgrade` (decision 0084): what one daemon
 * gives the next so that it serves the same stdio servers without restarting
 * them. The old daemon lets go of each server ({@link handOver}), writes the
 * record (a private file), and starts the new daemon with `--adopt <record>`,
 * which takes each server over ({@link adoptAll}).
 *
 * Named sessions need nothing here: engine/sessions.ts persists them, and
 * questions are in the question desk's store (engine/questions_store.ts).
 *
 * @module
 */

import type { ScopeKey } from "./scope_key.ts";
import type { AdoptedServer } from "./stdio_transport.ts";
import type { Handshake } from "./handshake.ts";
import type { Pool } from "./pool.ts";
import type { Handed, Instance } from "./instance.ts";
import type { RemoteSession } from "./remote_transport.ts";
import { describe } from "./error_text.ts";
import { killGroup } from "./stdio_transport.ts";
import { processStart } from "./process_groups.ts";

/** One server handed over. */
export interface HandedServer {
  /** The pool it belongs to (`ServerSpec.poolId`): the new daemon's pool of the same id adopts it. */
  poolId: string;
  /** The server's name, for messages. */
  server: string;
  /** The scope key it serves. */
  key: ScopeKey;
  /** A stdio server's process and FIFOs. */
  process?: AdoptedServer;
  /** A Streamable HTTP server's session, resumed by its id. */
  session?: RemoteSession;
  /** What it answered mcpx's handshake. */
  handshake: Handshake;
}

/** The record a daemon hands the next (JSON in a 0600 file). */
export interface HandoffRecord {
  /** The record's format: 1. */
  format: 1;
  /** The daemon that wrote it. */
  from: { pid: number; version: string };
  /** When it was written (ISO 8601). */
  at: string;
  servers: HandedServer[];
}

/**
 * Lets go of every instance of `pools` that can be handed over (stdio
 * servers on FIFOs, Streamable HTTP sessions), and stops the others (SSE
 * remotes, which the new daemon reconnects to on first use).
 *
 * @returns The servers handed over, and how many instances were stopped instead.
 */
export async function handOver(
  pools: readonly Pool[],
): Promise<{ servers: HandedServer[]; stopped: number }> {
  const servers: HandedServer[] = [];
  let stopped = 0;
  for (const pool of pools) {
    for (const instance of pool.release()) {
      const handshake = instance.handshake;
      let handed: Handed | undefined;
      try {
        handed = await instance.detach();
      } catch { /* exited meanwhile: closed below */ }
      if (handed) {
        servers.push({
          poolId: pool.spec.poolId,
          server: pool.spec.name,
          key: instance.scopeKey,
          ...handed,
          handshake,
        });
      } else {
        stopped++;
        await instance.close("stop");
      }
    }
  }
  return { servers, stopped };
}

/** What {@link adoptAll} did with one server it could not take over. */
export interface AdoptFailure {
  server: string;
  /** A stdio server's pid; absent for a remote. */
  pid?: number;
  /** Why, as a sentence. */
  error: string;
}

/**
 * Takes over every server of `record` into the pool of its id. A server that
 * cannot be taken over (its pool is gone from the configuration, its process
 * exited, its FIFOs cannot be opened) has its process group ended, since no
 * daemon would ever reach it again, and is reported.
 *
 * @param poolOf The pool of a pool id, if the configuration still has it.
 */
export async function adoptAll(
  record: HandoffRecord,
  poolOf: (poolId: string) => Pool | undefined,
): Promise<{ adopted: Instance[]; failed: AdoptFailure[] }> {
  const adopted: Instance[] = [];
  const failed: AdoptFailure[] = [];
  await Promise.all(record.servers.map(async (handed) => {
    const pool = poolOf(handed.poolId);
    try {
      if (!pool) throw new Error(`its configuration entry is gone`);
      adopted.push(await pool.adopt(handed.key, handed, handed.handshake));
    } catch (error) {
      const process = handed.process;
      failed.push({
        server: handed.server,
        ...(process ? { pid: process.pid } : {}),
        error: describe(error),
      });
      if (process && processStart(process.pid)?.start === process.start) {
        killGroup(process.pid, "SIGKILL");
      }
    }
  }));
  return { adopted, failed };
}
