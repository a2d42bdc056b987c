/**
 * Configuration files whose servers a command does not use because a nearer
 * one is in use: the nearest file's servers win (spec 000, "Configuration
 * files"), so a project's `.mcp.json` hides the user's own servers. That is
 * the rule, but it must not happen without a word (issue 24): `ls`, `search`
 * and an unknown namespace's error name the file in use, the ones it
 * shadows, and the flag that picks another (`--config <file>`).
 *
 * Settings are not shadowed: they layer, farthest first (config/discover.ts
 * `findConfigLayers`); only servers come from one file.
 *
 * @module
 */

import {
  type ConfigOrigin,
  configOrigin,
  findConfigLayers,
  type FindConfigOptions,
} from "./discover.ts";
import { shellWord } from "./shell_word.ts";

/** One existing configuration file whose servers are not used here. */
export interface ShadowedConfig {
  /** The file, absolute. */
  path: string;
  /** `user` for one of the user's own files, `project` for a project's farther up. */
  origin: ConfigOrigin;
}

/**
 * The existing configuration files farther than `inUse`, nearest first.
 *
 * @param inUse The file whose servers are used (null: none found, so none is shadowed).
 * @param options The search that found it (working directory, environment, `paths.config`).
 * @returns The shadowed files; empty when `MCPX_CONFIG` names the file (the search is not made).
 * @throws {ConfigError} As {@link findConfigLayers}, for something unreadable where a file is looked for.
 */
export function shadowedConfigs(
  inUse: string | null,
  options: FindConfigOptions,
): ShadowedConfig[] {
  if (inUse === null || options.env.MCPX_CONFIG) return [];
  return findConfigLayers(options)
    .filter((path) => path !== inUse)
    .reverse()
    .map((path) => ({ path, origin: configOrigin(path, options) }));
}

/**
 * The sentence that says so: which file's servers are used and which files'
 * are not, with the flag that picks one of them.
 *
 * @param inUse The file whose servers are used.
 * @param shadowed {@link shadowedConfigs}' answer (not empty).
 * @returns e.g. `servers come from /p/.mcp.json, the nearest configuration file; your own
 *   /h/.config/mcpx/config.json is not used here: add --config /h/.config/mcpx/config.json to use it`.
 */
export function shadowNote(inUse: string, shadowed: readonly ShadowedConfig[]): string {
  const named = shadowed.map((s) => s.origin === "user" ? `your own ${s.path}` : s.path);
  const list = named.length > 1
    ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)} are`
    : `${named[0]} is`;
  const pick = shadowed.find((s) => s.origin === "user") ?? shadowed[0];
  return `servers come from ${inUse}, the nearest configuration file; ${list} not used here: ` +
    `add --config ${shellWord(pick.path)} to use it`;
}
