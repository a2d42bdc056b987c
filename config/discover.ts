/**
 * Finding the configuration file (and, for settings, every layer of them).
 *
 * Order (spec 000, "Configuration"): `MCPX_CONFIG` overrides everything; else,
 * searched upward from the working directory to `/`, in each directory
 * `.mcpx.json`, `.mcpx/config.json`, `.mcp.json` (nearest directory first, and
 * that order within a directory); then `$XDG_CONFIG_HOME/mcpx/config.json`,
 * `~/.config/mcpx/config.json`, `~/.mcpx.json`, `/etc/mcpx/config.json`.
 *
 * Servers come from the single nearest file; settings layer over every file
 * (docs/decisions/0001-config-layers.md).
 *
 * @module
 */

import { dirname, join, resolve } from "./posix_path.ts";
import { ConfigError } from "../errors.ts";
import { mcpxPaths } from "./paths.ts";

/** The file names looked for in each directory of the upward search, in order. */
export const PROJECT_CONFIG_NAMES: readonly string[] = [
  ".mcpx.json",
  join(".mcpx", "config.json"),
  ".mcp.json",
];

/** Where to search from. */
export interface FindConfigOptions {
  /** Absolute (or process-relative) directory the upward search starts in. */
  cwd: string;
  /** Environment map (`MCPX_CONFIG`, `HOME`, `XDG_CONFIG_HOME`). */
  env: Record<string, string | undefined>;
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
  return [...new Set(out)];
}

/**
 * Finds the configuration file whose servers mcpx uses: the nearest one.
 *
 * @param options Start directory and environment.
 * @returns `{ path, searched }`; `path` is null when no file exists anywhere.
 * @throws {ConfigError} When `MCPX_CONFIG` names a file that does not exist (the message names
 *   the variable and the path), or a candidate cannot be inspected (e.g. permission denied).
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
    if (isFile(candidate)) return { path: candidate, searched };
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
  return configCandidates(options).filter(isFile).reverse();
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw new ConfigError(
      path,
      "",
      `cannot inspect the file: ${(error as Error).message}; fix its permissions or set ` +
        `MCPX_CONFIG to the file you mean`,
      { cause: error },
    );
  }
}
