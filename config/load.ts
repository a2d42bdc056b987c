/**
 * Loading a configuration: find the file, read it, parse JSONC, validate every
 * server, and fingerprint it. Accepts the `mcpServers` object other MCP hosts
 * use, so an existing `.mcp.json` works unchanged, plus an optional per-server
 * `mcpx` block and a top-level `pool` block of defaults.
 *
 * Every problem in a file is collected and reported together in one
 * {@link ConfigError}, one per line, each naming the file, the JSON path, the
 * bad value and the fix.
 *
 * Source: spec 000, "Configuration", "Sharing and scope", "One daemon per config".
 *
 * @module
 */

import { dirname, isAbsolute, resolve } from "../core/posix_path.ts";
import { ConfigError } from "../core/errors.ts";
import { findConfig, findConfigLayers } from "./discover.ts";
import { fingerprintFile, NO_CONFIG_FINGERPRINT } from "./fingerprint.ts";
import type { LoadedConfig } from "./types.ts";
import { describeValue } from "./_describe.ts";
import { readCompiled, writeCompiled } from "./compiled.ts";
import type { ParsedConfig } from "./parse.ts";
import { checkNesting } from "./_depth.ts";
import { interpolationEnv, loadUserEnv } from "./user_env.ts";
import type { SettingsLayer } from "./resolve_settings.ts";

export type { ParsedConfig } from "./parse.ts";

/**
 * Parses and validates configuration text; see config/parse.ts. Loads the
 * JSONC parser on first use.
 */
export async function parseConfigText(
  text: string,
  file: string | null,
  env: Record<string, string | undefined>,
  options: { dir?: string } = {},
): Promise<ParsedConfig> {
  const { parseConfig } = await import("./parse.ts");
  return parseConfig(text, file, env, options);
}
/** Options of {@link loadConfig} and {@link readConfigLayers}. */
export interface LoadConfigOptions {
  /** Where the upward search starts, and what a relative `path` resolves against. */
  cwd: string;
  /** Environment: `MCPX_CONFIG`, `HOME`, `XDG_CONFIG_HOME`, and `${VAR}` values. */
  env: Record<string, string | undefined>;
  /** A configuration file to use instead of searching (e.g. from `--config`). */
  path?: string;
  /**
   * Where compiled configurations are kept (config/compiled.ts); when absent
   * every load parses the file.
   */
  compiledCacheDir?: string;
  /** Aborts before each file read. */
  signal?: AbortSignal;
  /**
   * The places of `paths.config` (absolute paths, null for the built-in
   * search); absent: the built-in search (config/discover.ts).
   */
  places?: readonly (string | null)[];
  /** The command's earlier probes of candidates (config/discover.ts `FindConfigOptions.probed`). */
  probed?: Map<string, boolean>;
}

/**
 * Finds, reads, parses, validates and fingerprints the configuration. With no file
 * anywhere, returns zero servers and the fixed "no config" fingerprint.
 *
 * @param options Start directory, environment, optional explicit path, signal.
 * @returns {@link LoadedConfig} plus `warnings` (always present here).
 * @throws {ConfigError} When an explicit `path` or `MCPX_CONFIG` names a missing file, the
 *   file cannot be read or is not UTF-8, or {@link parseConfig} rejects it.
 * @throws {DOMException} `AbortError` when `signal` is aborted.
 * @example
 * ```ts
 * import { loadConfig } from "./load.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/.mcp.json`, `{ "mcpServers": { "a": { "url": "https://x.test/sse" } } }`);
 * const config = await loadConfig({ cwd: dir, env: { HOME: dir } });
 * await Deno.remove(dir, { recursive: true });
 * if (config.servers[0].transport !== "sse") throw new Error();
 * ```
 */
export async function loadConfig(
  options: LoadConfigOptions,
): Promise<LoadedConfig & { warnings: string[] }> {
  options.signal?.throwIfAborted();
  let path: string | null;
  let searched: string[] = [];
  if (options.path !== undefined) {
    path = isAbsolute(options.path) ? options.path : resolve(options.cwd, options.path);
  } else {
    ({ path, searched } = findConfig({
      cwd: options.cwd,
      env: options.env,
      places: options.places,
      probed: options.probed,
    }));
  }
  if (path === null) {
    return {
      path: null,
      searched,
      realPath: null,
      fingerprint: NO_CONFIG_FINGERPRINT,
      contentHash: NO_CONFIG_FINGERPRINT,
      servers: [],
      document: {},
      warnings: [],
    };
  }
  // `${VAR}` may come from the user-level .env too (spec 002; the environment wins), so its
  // values key the daemon as the environment's do; nothing else reads them.
  await loadUserEnv(options.env);
  const variables = interpolationEnv(options.env);
  const { realPath, bytes, fingerprint, contentHash } = await readFile(
    path,
    variables,
    options.signal,
    options.path,
  );
  const text = decode(bytes, path);
  const dir = options.compiledCacheDir;
  let parsed = dir ? readCompiled(dir, fingerprint) : undefined;
  if (!parsed) {
    // One directory for everything that means "the file's directory": its real
    // one. A link to the file elsewhere (a cloned repository's `.mcp.json`
    // pointing at a trusted project's) must not make the servers start, or
    // `npx` look for packages, in the link's directory; the compiled entry is
    // keyed by the real path, so it holds for every way of reaching the file.
    parsed = await parseConfigText(text, path, variables, { dir: dirname(realPath) });
    // What is stored carries the trust hashes too, so a command that checks trust hashes nothing.
    if (dir) parsed = await writeCompiled(dir, fingerprint, text, parsed);
  }
  return { path, realPath, fingerprint, contentHash, ...parsed };
}

/**
 * Reads every configuration file that layers settings, farthest first and nearest last,
 * parsing each as JSONC (servers are not validated here: they come from the nearest file).
 *
 * @param options Start directory, environment, signal (`path` pins a single layer).
 * @returns `{ file, realPath, document }[]`, the `layers` of `resolveSettings()` in settings.ts.
 * @throws {ConfigError} When a file cannot be read, is not UTF-8, is not valid JSONC, or its
 *   top level is not an object.
 * @example
 * ```ts
 * import { readConfigLayers } from "./load.ts";
 * const layers = await readConfigLayers({ cwd: "/", env: {} });
 * if (!Array.isArray(layers)) throw new Error();
 * ```
 */
export async function readConfigLayers(
  options: LoadConfigOptions,
): Promise<SettingsLayer[]> {
  options.signal?.throwIfAborted();
  const files = options.path !== undefined
    ? [isAbsolute(options.path) ? options.path : resolve(options.cwd, options.path)]
    : findConfigLayers({
      cwd: options.cwd,
      env: options.env,
      places: options.places,
      probed: options.probed,
    });
  const layers: SettingsLayer[] = [];
  for (const file of files) {
    const { bytes, realPath } = await readFile(file, options.env, options.signal, options.path);
    const text = decode(bytes, file);
    if (text.trim() === "") {
      layers.push({ file, realPath, document: {} });
      continue;
    }
    checkNesting(text, file);
    const { parseJsonc } = await import("./_jsonc.ts");
    const { value } = parseJsonc(text, file);
    if (value === undefined) {
      layers.push({ file, realPath, document: {} });
    } else if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new ConfigError(
        file,
        "",
        `the top level must be an object, got ${
          describeValue(value)
        }; write { "mcpServers": { … } }`,
      );
    } else {
      layers.push({ file, realPath, document: value as Record<string, unknown> });
    }
  }
  return layers;
}

async function readFile(
  path: string,
  env: Record<string, string | undefined>,
  signal: AbortSignal | undefined,
  explicit?: string,
) {
  try {
    return await fingerprintFile(path, { env, signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    // Not a regular file, or too large (config/config_file.ts): said already.
    if (error instanceof ConfigError) throw error;
    if (error instanceof Deno.errors.NotFound) {
      throw new ConfigError(
        path,
        "",
        `the file does not exist${
          explicit !== undefined ? ` (named as ${JSON.stringify(explicit)})` : ""
        }; create it or name an existing file`,
        { cause: error },
      );
    }
    if (error instanceof Deno.errors.IsADirectory || isDirectory(path)) {
      throw new ConfigError(
        path,
        "",
        `is a directory, not a configuration file; name a file such as ${
          path.replace(/\/$/, "")
        }/.mcp.json`,
        { cause: error },
      );
    }
    throw new ConfigError(
      path,
      "",
      `cannot read the file: ${(error as Error).message}; check its permissions`,
      { cause: error },
    );
  }
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function decode(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    throw new ConfigError(file, "", `the file is not UTF-8 text; save it as UTF-8`, {
      cause: error,
    });
  }
}
