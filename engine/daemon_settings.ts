/**
 * The settings a daemon runs with. A daemon applies one resolved set, the
 * same whoever started it: `mcpx daemon` resolves it in-process; a CLI that
 * starts a daemon on demand hands over the set it resolved (every file
 * layer, the environment, its flags) as `--settings <json>`, so an
 * auto-started daemon never re-reads a partial view of the files.
 *
 * @module
 */

import { readConfigLayers } from "../config/load.ts";
import { type ResolvedSettings, resolveSettings } from "../config/resolve_settings.ts";
import { resolveTrustedSettings } from "../config/project_settings.ts";
import { mcpxPaths } from "../config/paths.ts";
import type { SettingValue } from "../config/setting_value.ts";
import { UsageError } from "../core/errors.ts";

/** Every setting's typed value, keyed by dotted name (durations in ms, sizes in bytes). */
export type SettingValues = Record<string, SettingValue>;

/** The values of a resolved set, without their sources. */
export function settingValues(resolved: ResolvedSettings): SettingValues {
  return Object.fromEntries(Object.entries(resolved.values).map(([k, v]) => [k, v.value]));
}

/**
 * Reads the `--settings` argument of daemon/main.ts: a JSON object of
 * setting values. A setting it leaves out has its default.
 *
 * @throws {UsageError} naming the argument, the key and the problem, when it
 *   is not a JSON object, names no setting, or holds a value of the wrong type.
 */
export function parseSettingValues(json: string): SettingValues {
  let given: unknown;
  try {
    given = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`--settings must be a JSON object: ${(error as Error).message}`);
  }
  if (given === null || typeof given !== "object" || Array.isArray(given)) {
    throw new UsageError(`--settings must be a JSON object, got ${JSON.stringify(given)}`);
  }
  const values = settingValues(resolveSettings({ layers: [], env: {} }));
  for (const [name, value] of Object.entries(given as Record<string, unknown>)) {
    if (!(name in values)) {
      throw new UsageError(
        `--settings names "${name}", which is not a setting of this mcpx; ` +
          `\`mcpx config --schema\` lists them`,
      );
    }
    if (typeof value !== typeof values[name]) {
      throw new UsageError(
        `--settings: "${name}" must be a ${typeof values[name]}, got ${JSON.stringify(value)}`,
      );
    }
    values[name] = value as SettingValue;
  }
  return values;
}

/**
 * Resolves the settings for a daemon started without `--settings` (by hand):
 * defaults, the configuration files (only `configPath` when given, else
 * every layer found from `cwd`), then the environment — what a CLI there
 * would resolve without flags. With `trustCheck` (the file is a project's),
 * the file's settings apply only once trusted (config/project_settings.ts).
 *
 * @throws {ConfigError} for a file or variable holding an invalid value (never
 *   silently replaced by a default).
 */
export async function resolveDaemonSettings(
  options: {
    configPath: string | null;
    cwd: string;
    env: Record<string, string>;
    trustCheck?: boolean;
  },
): Promise<SettingValues> {
  const layers = await readConfigLayers({
    cwd: options.cwd,
    env: options.env,
    ...(options.configPath ? { path: options.configPath } : {}),
  });
  const resolved = await resolveTrustedSettings({
    layers: layers.map((layer) => ({ ...layer, project: options.trustCheck === true })),
    env: options.env,
    cwd: options.cwd,
    stateDir: mcpxPaths(options.env).stateDir,
  });
  return settingValues(resolved);
}
