/**
 * Where mcpx keeps state (sockets, logs, the log index), cache (the schema
 * cache) and user-level configuration.
 *
 * Source: spec 000, "Configuration" (user config locations), "Zero-context
 * discovery" (`$XDG_CACHE_HOME/mcpx`), and "Where a setting is read"
 * (`paths.state` and `paths.cache` are read on their own path, before settings
 * resolve, so they are applied here from their environment spellings,
 * `MCPX_PATHS_STATE` or `MCPX_STATE_DIR` and `MCPX_PATHS_CACHE` or
 * `MCPX_CACHE_DIR`, read and converted as config/settings.ts does).
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import { ConfigError } from "../core/errors.ts";
import { parseSettingValue, settingDeclaration, settingEnvSpelling } from "./settings.ts";

/**
 * The file names the other tool named mcpx reads at each of its roots, in its
 * order (spec 002, "Config"): mcpx looks for them after its own names, in each
 * directory of the upward search and in each user configuration directory
 * (docs/decisions/0056-the-other-mcpx-dialect.md). Every one is JSONC.
 */
export const SPEC_002_CONFIG_NAMES: readonly string[] = [
  "mcp.jsonc",
  "mcp.json",
  ".mcp.jsonc",
  ".mcp.json",
];

/** The directories mcpx uses, all absolute. */
export interface McpxPaths {
  /**
   * `MCPX_PATHS_STATE` (or `MCPX_STATE_DIR`), else `$XDG_STATE_HOME/mcpx`, else
   * `~/.local/state/mcpx`.
   */
  stateDir: string;
  /**
   * `MCPX_PATHS_CACHE` (or `MCPX_CACHE_DIR`), else `$XDG_CACHE_HOME/mcpx`, else
   * `~/.cache/mcpx`.
   */
  cacheDir: string;
  /**
   * User configuration directories, most specific first: `$XDG_CONFIG_HOME/mcpx` (when set)
   * and `~/.config/mcpx` (deduplicated).
   */
  configDirs: string[];
  /**
   * User and system configuration files in search order, after the upward search:
   * `$XDG_CONFIG_HOME/mcpx/config.json`, `~/.config/mcpx/config.json` (each directory's
   * `config.json` followed by {@link SPEC_002_CONFIG_NAMES} there), `~/.mcpx.json`,
   * `/etc/mcpx/config.json` (deduplicated; home entries omitted when `HOME` is unset).
   */
  configFiles: string[];
}

/**
 * Resolves mcpx's directories from an environment map. Pure: reads no files.
 * Relative `XDG_*` values are ignored, as the XDG Base Directory spec asks;
 * relative `MCPX_PATHS_*` / `MCPX_*_DIR` values resolve against the process's
 * working directory and a leading `~/` against `HOME`, as settings do.
 *
 * @param env The environment to read (`HOME`, `XDG_STATE_HOME`, `XDG_CACHE_HOME`,
 *   `XDG_CONFIG_HOME`, `MCPX_PATHS_STATE`, `MCPX_STATE_DIR`, `MCPX_PATHS_CACHE`,
 *   `MCPX_CACHE_DIR`; an empty value counts as unset).
 * @returns The directories; see {@link McpxPaths}.
 * @throws {ConfigError} When a state or cache directory is needed from `HOME` and `HOME` is
 *   unset, or when the two spellings of `paths.state` or `paths.cache` disagree.
 * @example
 * ```ts
 * import { mcpxPaths } from "./paths.ts";
 * const p = mcpxPaths({ HOME: "/home/ada" });
 * if (p.stateDir !== "/home/ada/.local/state/mcpx") throw new Error();
 * ```
 */
export function mcpxPaths(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): McpxPaths {
  const home = env.HOME || undefined;
  const xdg = (name: string) => {
    const value = env[name];
    return value && value.startsWith("/") ? value : undefined;
  };
  const fromHome = (variable: string, ...parts: string[]) => {
    if (!home) {
      throw new ConfigError(
        null,
        "",
        `cannot place the ${parts.at(-2) ?? "mcpx"} directory: HOME is unset; ` +
          `set HOME, ${variable}, or the matching MCPX_PATHS_* variable`,
      );
    }
    return join(home, ...parts);
  };
  const fromSetting = (name: string) => {
    const variable = settingEnvSpelling(name, env);
    return variable === undefined
      ? undefined
      : parseSettingValue(settingDeclaration(name), env[variable], { home }) as string;
  };
  const stateDir = fromSetting("paths.state") ??
    (xdg("XDG_STATE_HOME")
      ? join(xdg("XDG_STATE_HOME")!, "mcpx")
      : fromHome("XDG_STATE_HOME", ".local", "state", "mcpx"));
  const cacheDir = fromSetting("paths.cache") ??
    (xdg("XDG_CACHE_HOME")
      ? join(xdg("XDG_CACHE_HOME")!, "mcpx")
      : fromHome("XDG_CACHE_HOME", ".cache", "mcpx"));
  const configDirs: string[] = [];
  const xdgConfig = xdg("XDG_CONFIG_HOME");
  if (xdgConfig) configDirs.push(join(xdgConfig, "mcpx"));
  if (home) configDirs.push(join(home, ".config", "mcpx"));
  const configFiles = configDirs.flatMap((dir) =>
    ["config.json", ...SPEC_002_CONFIG_NAMES].map((name) => join(dir, name))
  );
  if (home) configFiles.push(join(home, ".mcpx.json"));
  configFiles.push("/etc/mcpx/config.json");
  return { stateDir, cacheDir, configDirs: unique(configDirs), configFiles: unique(configFiles) };
}

/**
 * Where the built-in state or cache directory comes from when neither its
 * variables nor a flag set it, in `mcpx config`'s SOURCE wording.
 *
 * @param name `paths.state` or `paths.cache`.
 * @param env The environment to read (`XDG_STATE_HOME`, `XDG_CACHE_HOME`; a relative
 *   value is ignored, as {@link mcpxPaths} ignores it).
 * @returns e.g. `default ($XDG_STATE_HOME/mcpx)` or `default (~/.cache/mcpx)`.
 * @example
 * ```ts
 * import { defaultPathSource } from "./paths.ts";
 * if (defaultPathSource("paths.cache", {}) !== "default (~/.cache/mcpx)") throw new Error();
 * ```
 */
export function defaultPathSource(
  name: "paths.state" | "paths.cache",
  env: Record<string, string | undefined>,
): string {
  const [variable, fallback] = name === "paths.state"
    ? ["XDG_STATE_HOME", "~/.local/state/mcpx"]
    : ["XDG_CACHE_HOME", "~/.cache/mcpx"];
  return env[variable]?.startsWith("/") ? `default ($${variable}/mcpx)` : `default (${fallback})`;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
