/**
 * The `lsNamespaces` route's handler: the `ls` op (ops/ls.ts) run in the
 * daemon against its own cache, parsed and in memory, and its own pools'
 * live counts, so `ls` costs the same with 1 server or 100 (decision 0030).
 * The configuration's and the settings' warnings are the caller's: its
 * command reads its own settings and adds them.
 *
 * @module
 */

import type { Daemon } from "../engine/engine.ts";
import { DEFAULT_SELECTION } from "../config/profiles.ts";
import type { InputOf, OutputOf } from "./op.ts";
import type { lsNamespaces } from "./routes.ts";
import { callerOf } from "./caller_schema.ts";
import { answer } from "./ls.ts";
import { listedView } from "./daemon_view.ts";

/**
 * Answers `ls` from the daemon: the caller's selection, its unlisted servers
 * listed first, each row's state from the daemon's cache entry and pools.
 *
 * @param daemon The daemon.
 * @param input The route's validated input (the caller's fields alone).
 * @returns What ops/ls.ts `answer` returns, with no warnings.
 * @throws the cache write's error when a listing could not be stored (a full disk).
 */
export async function lsInDaemon(
  daemon: Daemon,
  input: InputOf<typeof lsNamespaces>,
): Promise<OutputOf<typeof lsNamespaces>> {
  const selection = callerOf(input).selection ?? DEFAULT_SELECTION;
  return await answer({}, {
    config: () => Promise.resolve(daemon.config),
    namespaces: async () => ({
      ...await listedView(daemon, selection, true, input.wait),
      entry: (spec) => daemon.entry(spec),
    }),
    live: () => Promise.resolve(daemon.live()),
    warnings: () => Promise.resolve([]),
  });
}
