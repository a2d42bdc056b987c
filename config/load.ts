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

import { isAbsolute, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { findConfig, findConfigLayers } from "./discover.ts";
import { fingerprintFile, NO_CONFIG_FINGERPRINT } from "./fingerprint.ts";
import { SETTING_SECTIONS } from "./settings.ts";
import type { LoadedConfig, PoolSettings, ServerSpec } from "./types.ts";
import { describeValue } from "./_describe.ts";
import { parseJsonc } from "./_jsonc.ts";
import { POOL_KEYS, readPoolKeys } from "./_pool.ts";
import { formatPath, Problems } from "./_problems.ts";
import { MCPX_KEYS, parseServer } from "./_server.ts";
import { didYouMean } from "./_suggest.ts";

/** Top-level keys that are not settings sections. */
const DOCUMENT_KEYS: readonly string[] = ["mcpServers", "pool", "$schema"];

/** The result of {@link parseConfig}. */
export interface ParsedConfig {
  /** Every server, enabled and disabled, in file order. */
  servers: ServerSpec[];
  /** The whole parsed document (plain objects), for settings lookups. */
  document: Record<string, unknown>;
  /** Things that are allowed but probably not meant, one sentence each. */
  warnings: string[];
}

/**
 * Parses and validates configuration text. Pure: reads no files and no process state.
 *
 * @param text The file's contents (JSONC: comments and trailing commas allowed).
 * @param file The file's path for messages and for resolving a relative `cwd`, or null.
 * @param env Variables for `${VAR}` expansion.
 * @returns `{ servers, document, warnings }`.
 * @throws {ConfigError} When the text is empty, is not valid JSONC (naming
 *   `file:line:column` and the parser's error name), or fails validation; all validation
 *   problems are listed together, one per line.
 * @example
 * ```ts
 * import { parseConfig } from "./load.ts";
 * const { servers } = parseConfig(
 *   `{ "mcpServers": { "fs": { "command": "npx", "args": ["-y", "x"] } } }`,
 *   "/p/.mcp.json",
 *   {},
 * );
 * if (servers[0].transport !== "stdio") throw new Error();
 * ```
 */
export function parseConfig(
  text: string,
  file: string | null,
  env: Record<string, string | undefined> = {},
): ParsedConfig {
  const emptyFix = `write at least { "mcpServers": {} }`;
  if (text.trim() === "") throw new ConfigError(file, "", `the file is empty, got ""; ${emptyFix}`);
  const { value, duplicates } = parseJsonc(text, file);
  if (value === undefined) {
    throw new ConfigError(file, "", `the file holds only comments, got no value; ${emptyFix}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigError(
      file,
      "",
      `the top level must be an object, got ${describeValue(value)}; write { "mcpServers": { … } }`,
    );
  }
  const document = value as Record<string, unknown>;
  const problems = new Problems(file);
  const warnings: string[] = [];
  const where = file ?? "(none)";

  for (const dup of duplicates) {
    problems.add(
      [...dup.path, dup.key],
      `the key ${JSON.stringify(dup.key)} is written twice (lines ${dup.lines[0]} and ` +
        `${dup.lines[1]}); remove one, since which one was meant cannot be known`,
    );
  }

  const known = [...DOCUMENT_KEYS, ...SETTING_SECTIONS];
  for (const key of Object.keys(document)) {
    if (!known.includes(key)) {
      warnings.push(
        `config ${where}: ${formatPath([key])}: unknown top-level key, ignored${
          didYouMean(key, known)
        }`,
      );
    }
  }

  const poolDefaults = readPoolBlock(document, problems);

  const servers: ServerSpec[] = [];
  const raw = document.mcpServers;
  if (raw === undefined) {
    warnings.push(
      `config ${where}: no "mcpServers" key, so no servers are configured; add ` +
        `"mcpServers": { "name": { "command": "…" } }`,
    );
  } else if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    problems.add(
      ["mcpServers"],
      `must be an object of server name to server, got ${describeValue(raw)}; write ` +
        `{ "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] } }`,
    );
  } else {
    for (const [name, entry] of Object.entries(raw)) {
      const spec = parseServer(name, entry, { file, env, problems, warnings, poolDefaults });
      if (spec) servers.push(spec);
    }
  }

  const byNamespace = new Map<string, string>();
  for (const spec of servers) {
    const other = byNamespace.get(spec.namespace);
    if (other === undefined) {
      byNamespace.set(spec.namespace, spec.name);
      continue;
    }
    problems.add(
      ["mcpServers", spec.name],
      `namespace ${JSON.stringify(spec.namespace)} is also used by server ${
        JSON.stringify(other)
      }; give one of ${JSON.stringify(other)} and ${JSON.stringify(spec.name)} its own ` +
        `"mcpx": { "namespace": "…" }`,
    );
  }

  problems.throwIfAny();
  return { servers, document, warnings };
}

function readPoolBlock(
  document: Record<string, unknown>,
  problems: Problems,
): Partial<PoolSettings> {
  const block = document.pool;
  if (block === undefined) return {};
  if (block === null || typeof block !== "object" || Array.isArray(block)) {
    problems.add(
      ["pool"],
      `must be an object of pool defaults, got ${describeValue(block)}; write e.g. ` +
        `{ "callTimeout": "2m" }`,
    );
    return {};
  }
  const obj = block as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (POOL_KEYS.includes(key)) continue;
    const fix = MCPX_KEYS.includes(key)
      ? `; ${key} is per server: put it in mcpServers.<name>.mcpx`
      : `${didYouMean(key, POOL_KEYS) || "; remove it"} (accepted: ${POOL_KEYS.join(", ")})`;
    problems.add(["pool", key], `unknown key, got ${describeValue(obj[key])}${fix}`);
  }
  const settings = readPoolKeys(obj, ["pool"], problems);
  const min = settings.min ?? 0;
  const max = settings.max ?? 1;
  if ((settings.min !== undefined || settings.max !== undefined) && min > max) {
    problems.add(
      ["pool", settings.min !== undefined ? "min" : "max"],
      settings.min !== undefined
        ? `must be ≤ max (${max}), got ${min}; lower min or raise max`
        : `must be ≥ min (${min}), got ${max}; raise max or lower min`,
    );
  }
  return settings;
}

/** Options of {@link loadConfig} and {@link readConfigLayers}. */
export interface LoadConfigOptions {
  /** Where the upward search starts, and what a relative `path` resolves against. */
  cwd: string;
  /** Environment: `MCPX_CONFIG`, `HOME`, `XDG_CONFIG_HOME`, and `${VAR}` values. */
  env: Record<string, string | undefined>;
  /** A configuration file to use instead of searching (e.g. from `--config`). */
  path?: string;
  /** Aborts before each file read. */
  signal?: AbortSignal;
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
  if (options.path !== undefined) {
    path = isAbsolute(options.path) ? options.path : resolve(options.cwd, options.path);
  } else {
    path = findConfig({ cwd: options.cwd, env: options.env }).path;
  }
  if (path === null) {
    return {
      path: null,
      realPath: null,
      fingerprint: NO_CONFIG_FINGERPRINT,
      servers: [],
      document: {},
      warnings: [],
    };
  }
  const { realPath, bytes, fingerprint } = await readFile(path, options.signal, options.path);
  const text = decode(bytes, path);
  const parsed = parseConfig(text, path, options.env);
  return { path, realPath, fingerprint, ...parsed };
}

/**
 * Reads every configuration file that layers settings, farthest first and nearest last,
 * parsing each as JSONC (servers are not validated here: they come from the nearest file).
 *
 * @param options Start directory, environment, signal (`path` pins a single layer).
 * @returns `{ file, document }[]`, the `layers` of `resolveSettings()` in settings.ts.
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
): Promise<{ file: string; document: Record<string, unknown> }[]> {
  options.signal?.throwIfAborted();
  const files = options.path !== undefined
    ? [isAbsolute(options.path) ? options.path : resolve(options.cwd, options.path)]
    : findConfigLayers({ cwd: options.cwd, env: options.env });
  const layers: { file: string; document: Record<string, unknown> }[] = [];
  for (const file of files) {
    const { bytes } = await readFile(file, options.signal, options.path);
    const text = decode(bytes, file);
    if (text.trim() === "") {
      layers.push({ file, document: {} });
      continue;
    }
    const { value } = parseJsonc(text, file);
    if (value === undefined) {
      layers.push({ file, document: {} });
    } else if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new ConfigError(
        file,
        "",
        `the top level must be an object, got ${
          describeValue(value)
        }; write { "mcpServers": { … } }`,
      );
    } else {
      layers.push({ file, document: value as Record<string, unknown> });
    }
  }
  return layers;
}

async function readFile(path: string, signal: AbortSignal | undefined, explicit?: string) {
  try {
    return await fingerprintFile(path, { signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
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
    throw new ConfigError(
      path,
      "",
      `cannot read the file: ${(error as Error).message}; check its permissions`,
      { cause: error },
    );
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
