/**
 * Finding the configuration file (and, for settings, every layer of them).
 *
 * Order (spec 000, "Configuration"): `MCPX_CONFIG` overrides everything; else,
 * searched upward from the working directory to `/`, in each directory
 * `.mcpx.json`, `.mcpx/config.json`, `.mcp.json`, then spec 002's `mcp.jsonc`,
 * `mcp.json`, `.mcp.jsonc` (nearest directory first, and that order within a
 * directory); then `$XDG_CONFIG_HOME/mcpx/config.json`, `~/.config/mcpx/config.json`
 * (each config directory also holding spec 002's four names after `config.json`),
 * `~/.mcpx.json`, `/etc/mcpx/config.json`.
 *
 * The setting `paths.config` (read from the environment and flags only,
 * since it says where files are) replaces that search with its own list of
 * places, where a null (empty) entry stands for the built-in search above;
 * a place that is a directory is searched for the three names and
 * `config.json`, anything else is taken as a file (spec 000, "Search paths").
 *
 * Servers come from the single nearest file; settings layer over every file
 * (docs/decisions/0001-config-layers.md).
 *
 * @module
 */

import { basename, dirname, join, resolve } from "../core/posix_path.ts";
import { ConfigError } from "../core/errors.ts";
import { mcpxPaths, SPEC_002_CONFIG_NAMES } from "./paths.ts";
import { configPathState } from "./config_file.ts";

/** The file names looked for in each directory of the upward search, in order. */
export const PROJECT_CONFIG_NAMES: readonly string[] = [
  ".mcpx.json",
  join(".mcpx", "config.json"),
  ".mcp.json",
  // The other tool named mcpx reads these (spec 002, "Config"); after mcpx's own names, in
  // that tool's order among themselves (docs/decisions/0056-the-other-mcpx-dialect.md).
  ...SPEC_002_CONFIG_NAMES.filter((name) => name !== ".mcp.json"),
];

/** Where to search from. */
export interface FindConfigOptions {
  /** Absolute (or process-relative) directory the upward search starts in. */
  cwd: string;
  /** Environment map (`MCPX_CONFIG`, `HOME`, `XDG_CONFIG_HOME`). */
  env: Record<string, string | undefined>;
  /**
   * The places of `paths.config`, nearest first: absolute paths, and `null`
   * where the built-in search goes (config/settings.ts `parsePathList()`).
   * Absent: the built-in search alone.
   */
  places?: readonly (string | null)[];
  /**
   * What earlier searches of the same command found at each candidate (true:
   * a configuration file): one command searches for its file, its settings'
   * layers and the files it shadows, and looks at each candidate once.
   * Filled in as the search goes.
   */
  probed?: Map<string, boolean>;
}

/** The result of {@link findConfig}. */
export interface FoundConfig {
  /** The nearest existing configuration file (absolute), or null. */
  path: string | null;
  /** Every path checked, in order, up to and including the one found. */
  searched: string[];
}

/**
 * Every candidate location in search order (existing or not). When `MCPX_CONFIG`
 * is set (non-empty) it is the only candidate.
 *
 * @param options Start directory and environment.
 * @returns Absolute paths, nearest first, without duplicates.
 * @example
 * ```ts
 * import { configCandidates } from "./discover.ts";
 * const c = configCandidates({ cwd: "/a", env: { HOME: "/h" } });
 * if (c[0] !== "/a/.mcpx.json") throw new Error();
 * ```
 */
export function configCandidates(options: FindConfigOptions): string[] {
  const explicit = options.env.MCPX_CONFIG;
  if (explicit) return [resolve(options.cwd, explicit)];
  const out: string[] = [];
  for (const place of options.places ?? [null]) {
    if (place === null) out.push(...builtInCandidates(options));
    else if (isDirectory(place)) {
      out.push(...[...PROJECT_CONFIG_NAMES, "config.json"].map((name) => join(place, name)));
    } else out.push(place);
  }
  return [...new Set(out)];
}

function builtInCandidates(options: FindConfigOptions): string[] {
  const out: string[] = [];
  let dir = resolve(options.cwd);
  for (;;) {
    for (const name of PROJECT_CONFIG_NAMES) out.push(join(dir, name));
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  let userFiles: string[];
  try {
    userFiles = mcpxPaths(options.env).configFiles;
  } catch {
    userFiles = ["/etc/mcpx/config.json"];
  }
  out.push(...userFiles);
  return out;
}

/**
 * Where a search looked, in a sentence: runs of directories searched for the
 * project names are said once (`in /a/b and every directory above it`), other
 * candidates are listed.
 *
 * @param searched The candidates, in order ({@link FoundConfig.searched}).
 * @returns e.g. `looked for .mcpx.json, …, .mcp.jsonc in /a/b and every directory above it,
 *   then at /h/.config/mcpx/{config.json,mcp.jsonc}, /h/.mcpx.json and /etc/mcpx/config.json`.
 * @example
 * ```ts
 * import { configCandidates, describeSearch } from "./discover.ts";
 * const text = describeSearch(configCandidates({ cwd: "/a", env: {} }));
 * if (!text.includes("in /a and every directory above it")) throw new Error();
 * ```
 */
export function describeSearch(searched: readonly string[]): string {
  const parts: string[] = [];
  const dirs: string[] = [];
  const flush = () => {
    if (dirs.length === 0) return;
    const upward = dirs.length > 1 && dirs.every((d, i) => i === 0 || d === dirname(dirs[i - 1])) &&
      dirname(dirs.at(-1)!) === dirs.at(-1);
    const where = upward
      ? `in ${dirs[0]} and every directory above it`
      : `in ${dirs.length > 1 ? `${dirs.slice(0, -1).join(", ")} and ${dirs.at(-1)}` : dirs[0]}`;
    parts.push(`for ${PROJECT_CONFIG_NAMES.join(", ").replace(/, ([^,]*)$/, " or $1")} ${where}`);
    dirs.length = 0;
  };
  const files: string[] = [];
  const flushFiles = () => {
    if (files.length === 0) return;
    // Several names in one directory (a user configuration directory) are said once: dir/{a,b}.
    const runs: string[][] = [];
    for (const file of files) {
      const last = runs.at(-1);
      if (last && dirname(last[0]) === dirname(file)) last.push(file);
      else runs.push([file]);
    }
    const said = runs.map((run) =>
      run.length === 1
        ? run[0]
        : `${dirname(run[0])}/{${run.map((file) => basename(file)).join(",")}}`
    );
    const list = said.length > 1 ? `${said.slice(0, -1).join(", ")} and ${said.at(-1)}` : said[0];
    parts.push(`at ${list}`);
    files.length = 0;
  };
  for (let i = 0; i < searched.length;) {
    const dir = dirname(searched[i]);
    const triple = PROJECT_CONFIG_NAMES.every((name, k) => searched[i + k] === join(dir, name));
    if (triple && basename(searched[i]) === PROJECT_CONFIG_NAMES[0]) {
      flushFiles();
      dirs.push(dir);
      i += PROJECT_CONFIG_NAMES.length;
      continue;
    }
    flush();
    files.push(searched[i]);
    i++;
  }
  flush();
  flushFiles();
  return parts.length ? `looked ${parts.join(", then ")}` : "looked nowhere";
}

/**
 * Finds the configuration file whose servers mcpx uses: the nearest one.
 *
 * @param options Start directory and environment.
 * @returns `{ path, searched }`; `path` is null when no file exists anywhere.
 * @throws {ConfigError} When `MCPX_CONFIG` names a file that does not exist (the message names
 *   the variable and the path), a candidate cannot be inspected (e.g. permission denied), or
 *   something that cannot be a configuration file is where one is looked for (a directory, a
 *   symbolic link to nothing, a pipe, a device: config/config_file.ts).
 * @example
 * ```ts
 * import { findConfig } from "./discover.ts";
 * const found = findConfig({ cwd: "/nonexistent-dir", env: {} });
 * if (!Array.isArray(found.searched)) throw new Error();
 * ```
 */
export function findConfig(options: FindConfigOptions): FoundConfig {
  const searched: string[] = [];
  for (const candidate of configCandidates(options)) {
    searched.push(candidate);
    if (isFile(candidate, Boolean(options.env.MCPX_CONFIG), options.probed)) {
      return { path: candidate, searched };
    }
  }
  if (options.env.MCPX_CONFIG) {
    throw new ConfigError(
      searched[0],
      "",
      `MCPX_CONFIG=${JSON.stringify(options.env.MCPX_CONFIG)} names a file that does not exist; ` +
        `create it, point MCPX_CONFIG at an existing file, or unset MCPX_CONFIG to search for one`,
    );
  }
  return { path: null, searched };
}

/**
 * Every existing configuration file, farthest first and nearest last: the order settings
 * layer in (a nearer file overrides a farther one). With `MCPX_CONFIG` set, only that file.
 *
 * @param options Start directory and environment.
 * @returns Absolute paths of existing files; empty when none exist.
 * @throws {ConfigError} As {@link findConfig}.
 * @example
 * ```ts
 * import { findConfigLayers } from "./discover.ts";
 * const layers = findConfigLayers({ cwd: "/nonexistent-dir", env: {} });
 * if (!Array.isArray(layers)) throw new Error();
 * ```
 */
export function findConfigLayers(options: FindConfigOptions): string[] {
  if (options.env.MCPX_CONFIG) return [findConfig(options).path!];
  return configCandidates(options).filter((path) => isFile(path, false, options.probed)).reverse();
}

/**
 * Where a configuration file came from, which decides whether mcpx may start
 * its servers without asking (config/trust.ts, decision 0018):
 * - `named`: given by `--config` or `MCPX_CONFIG`, the user's explicit choice;
 * - `user`: one of the user's own files (`$XDG_CONFIG_HOME/mcpx/config.json`,
 *   `~/.config/mcpx/config.json`, `~/.mcpx.json`, `/etc/mcpx/config.json`) or a
 *   place the user listed in `paths.config`;
 * - `project`: found by the upward search from the working directory, i.e. a
 *   file a cloned repository can bring.
 */
export type ConfigOrigin = "project" | "user" | "named";

/**
 * Tells where the configuration file `path` came from ({@link ConfigOrigin}).
 *
 * @param path The file as found (absolute), e.g. {@link FoundConfig.path}.
 * @param options The search it came from; `named` is true when `--config` named it.
 * @returns `named`, `user` or `project`.
 * @example
 * ```ts
 * import { configOrigin } from "./discover.ts";
 * if (configOrigin("/h/.mcpx.json", { cwd: "/h/p", env: { HOME: "/h" } }) !== "user") throw new Error();
 * if (configOrigin("/h/p/.mcp.json", { cwd: "/h/p", env: { HOME: "/h" } }) !== "project") throw new Error();
 * ```
 */
export function configOrigin(
  path: string,
  options: FindConfigOptions & { named?: boolean },
): ConfigOrigin {
  if (options.named || options.env.MCPX_CONFIG) return "named";
  const listed = (options.places ?? []).filter((place): place is string => place !== null);
  if (listed.length && configCandidates({ ...options, places: listed }).includes(path)) {
    return "user";
  }
  let userFiles: string[];
  try {
    userFiles = mcpxPaths(options.env).configFiles;
  } catch {
    userFiles = ["/etc/mcpx/config.json"];
  }
  return userFiles.includes(path) ? "user" : "project";
}

/**
 * The sentence for a command that needs a configuration when none was found:
 * where the search looked and how to make one.
 *
 * @param searched The candidates looked at ({@link FoundConfig.searched}).
 * @param cwd The working directory (where a new `.mcp.json` would go).
 * @returns e.g. `no configuration file found (looked for … in /p and every directory above
 *   it, then at …); create /p/.mcp.json with { "mcpServers": { … } }, or set MCPX_CONFIG to one`.
 */
export function noConfigMessage(searched: readonly string[], cwd: string): string {
  return `no configuration file found (${describeSearch(searched)}); create ${
    join(resolve(cwd), ".mcp.json")
  } with { "mcpServers": { "name": { "command": "…" } } }, or set MCPX_CONFIG to one`;
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * True when a configuration file is at `path`, false when nothing is there.
 * Something there that cannot be one (a directory, a link to nothing, a
 * pipe, a device) is an error naming it, never passed over as if absent:
 * otherwise a `.mcp.json` directory would read as "no configuration found"
 * (config/config_file.ts).
 *
 * @param probed The command's earlier answers ({@link FindConfigOptions.probed}).
 * @throws {ConfigError} naming the path, what is there, and the fix.
 */
function isFile(path: string, named = false, probed?: Map<string, boolean>): boolean {
  const known = probed?.get(path);
  if (known !== undefined) return known;
  let found: ReturnType<typeof configPathState>;
  try {
    found = configPathState(path, named);
  } catch (error) {
    throw new ConfigError(
      path,
      "",
      `cannot inspect the file: ${(error as Error).message}; fix its permissions or set ` +
        `MCPX_CONFIG to the file you mean`,
      { cause: error },
    );
  }
  if (found.state === "problem") throw new ConfigError(path, "", found.problem);
  const file = found.state === "file";
  probed?.set(path, file);
  return file;
}
