/**
 * The `scripts` op: every named script reachable from the working directory
 * (setting `paths.scripts`, else the built-in places; spec 000, "Named
 * scripts", "Search paths"), nearest first for each name, a farther copy
 * marked `shadowedBy` and a `.ts` beside a `.js` marked `conflictsWith` (a
 * run refuses both).
 *
 * @module
 */

import type { InputOf, OutputOf } from "./op.ts";
import type { scripts } from "./discovery_ops.ts";
import type { OpHost } from "./host.ts";
import { listScripts } from "../scripts/list.ts";

/** What `scripts` answers (ops/discovery_outputs.ts `ScriptsOutput`). */
export type ScriptsOutput = OutputOf<typeof scripts>;

/**
 * Lists the named scripts.
 *
 * @param _input The op's input (none).
 * @param host Settings `paths.scripts` and `plumbing.allowTsJsOverlap`.
 * @returns The places searched, nearest first, and the scripts sorted by name.
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function handle(
  _input: InputOf<typeof scripts>,
  host: OpHost,
): Promise<ScriptsOutput> {
  const dirs = await host.scriptDirs();
  const found = await listScripts(dirs, {
    allowTsJsOverlap: await host.setting("plumbing.allowTsJsOverlap") === true,
  });
  return { dirs, scripts: found };
}
