/**
 * A test fixture: a {@link Daemon} with no configuration file and no servers,
 * its schema cache and sessions in a temporary directory of its own. For
 * in-process tests of the routes and listeners, which need a daemon but no
 * server.
 *
 * @module
 */

import { Daemon } from "./engine.ts";

/**
 * Makes an empty daemon in a new temporary directory.
 *
 * @returns The daemon and the directory (the caller removes it).
 */
export async function emptyDaemon(): Promise<{ daemon: Daemon; dir: string }> {
  const dir = await Deno.makeTempDir();
  const daemon = new Daemon({
    config: { path: null, realPath: null, fingerprint: "0".repeat(16), servers: [], document: {} },
    cachePath: `${dir}/schemas.json`,
    sessionsPath: `${dir}/sessions.json`,
    mode: "foreground",
    env: {},
  });
  return { daemon, dir };
}
