/**
 * Parsing and validating configuration text: JSONC, the `mcpServers` object
 * other MCP hosts use, the per-server `mcpx` block and the top-level `pool`
 * block. Pure. Loaded only when a configuration is not already compiled
 * (config/compiled.ts), because jsonc-parser costs ~40 ms of start-up.
 *
 * Source: spec 000, "Configuration", "Sharing and scope", "Profiles and aliases".
 *
 * @module
 */

import { ConfigError } from "../core/errors.ts";
import { SETTING_SECTIONS } from "./settings.ts";
import type { PoolSettings, ServerSpec } from "./types.ts";
import { describeValue } from "./_describe.ts";
import { parseJsonc } from "./_jsonc.ts";
import { checkNesting } from "./_depth.ts";
import { AliasResolver, aliasTargetOf } from "./_alias.ts";
import { POOL_KEYS, readPoolKeys } from "./_pool.ts";
import { formatPath, Problems } from "./_problems.ts";
import { MCPX_KEYS, MODE_REPLACED, parseServer } from "./_server.ts";
import { readToolLists, TOOL_LIST_KEYS, type ToolLists } from "./_tool_lists.ts";
import { didYouMean } from "./_suggest.ts";
import { readHooks } from "./hooks.ts";
import { fileSettingProblems } from "./resolve_settings.ts";
import { dirname } from "../core/posix_path.ts";

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
  /**
   * Server name → the hash the trust store records for it (config/runnable_hash.ts),
   * set by config/load.ts and kept with the compiled entry; parsing leaves it out.
   */
  runnableHashes?: Record<string, string>;
}

/**
 * Parses and validates configuration text. Pure: reads no files and no process state.
 *
 * @param text The file's contents (JSONC: comments and trailing commas allowed).
 * @param file The file's path as found, for messages, or null.
 * @param env Variables for `${VAR}` expansion.
 * @param options `dir`: the directory a stdio server without `cwd` starts in and a relative
 *   `cwd` resolves against — the file's real directory, symlinks resolved (config/load.ts
 *   passes it); absent: the directory of `file`.
 * @returns `{ servers, document, warnings }`.
 * @throws {ConfigError} When the text is empty, nests deeper than config/_depth.ts
 *   `MAX_CONFIG_DEPTH`, is not valid JSONC (naming `file:line:column` and the parser's error
 *   name), or fails validation; all validation problems are listed together, one per line.
 * @example
 * ```ts
 * import { parseConfig } from "./parse.ts";
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
  options: { dir?: string } = {},
): ParsedConfig {
  const emptyFix = `write at least { "mcpServers": {} }`;
  if (text.trim() === "") throw new ConfigError(file, "", `the file is empty, got ""; ${emptyFix}`);
  checkNesting(text, file);
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

  const { settings: poolDefaults, defaultSelected, poolTools } = readPoolBlock(document, problems);

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
    const entries = raw as Record<string, unknown>;
    const dir = options.dir ?? (file === null ? null : dirname(file));
    const ctx = { file, dir, env, problems, warnings, poolDefaults, defaultSelected, poolTools };
    // Servers first, then aliases, which take their process from a parsed server.
    const parsed = new Map<string, ServerSpec | undefined>();
    for (const [name, entry] of Object.entries(entries)) {
      if (aliasTargetOf(entry) === undefined) parsed.set(name, parseServer(name, entry, ctx));
    }
    const aliases = new AliasResolver(entries, parsed, problems);
    for (const [name, entry] of Object.entries(entries)) {
      const wanted = aliasTargetOf(entry);
      if (wanted === undefined) continue;
      const target = aliases.resolve(name, wanted);
      if (!target) continue;
      const alias = parseServer(name, entry, ctx, target);
      parsed.set(name, alias);
    }
    for (const name of Object.keys(entries)) {
      const spec = parsed.get(name);
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

  // Checked with the rest of the file; the daemon reads them again to run them (config/hooks.ts).
  readHooks(document, problems, servers);

  // A file that fails says what is wrong with its settings too, in the same round (settings are
  // otherwise checked later, when they are resolved: config/resolve_settings.ts).
  if (problems.list.length > 0 && file !== null) {
    for (const error of fileSettingProblems(file, document, env.HOME)) {
      if (error instanceof ConfigError) problems.list.push(error);
    }
  }
  problems.throwIfAny();
  return { servers, document, warnings };
}

/** The pool block's keys besides the pool settings: the default-set switch and the tool lists. */
const POOL_BLOCK_EXTRA_KEYS: readonly string[] = ["default", ...TOOL_LIST_KEYS];

function readPoolBlock(
  document: Record<string, unknown>,
  problems: Problems,
): { settings: Partial<PoolSettings>; defaultSelected?: boolean; poolTools?: ToolLists } {
  const block = document.pool;
  if (block === undefined) return { settings: {} };
  if (block === null || typeof block !== "object" || Array.isArray(block)) {
    problems.add(
      ["pool"],
      `must be an object of pool defaults, got ${describeValue(block)}; write e.g. ` +
        `{ "callTimeout": "2m" }`,
    );
    return { settings: {} };
  }
  const obj = block as Record<string, unknown>;
  let defaultSelected: boolean | undefined;
  if (Object.hasOwn(obj, "default")) {
    if (typeof obj.default === "boolean") defaultSelected = obj.default;
    else {
      problems.add(
        ["pool", "default"],
        `must be true or false, got ${describeValue(obj.default)}; write false so servers ` +
          `join the default set only with "mcpx": { "default": true }`,
      );
    }
  }
  const accepted = [...POOL_KEYS, ...POOL_BLOCK_EXTRA_KEYS];
  for (const key of Object.keys(obj)) {
    if (accepted.includes(key)) continue;
    const fix = key === "mode"
      ? `; ${MODE_REPLACED}`
      : MCPX_KEYS.includes(key)
      ? `; ${key} is per server: put it in mcpServers.<name>.mcpx`
      : `${didYouMean(key, accepted) || "; remove it"} (accepted: ${accepted.join(", ")})`;
    problems.add(["pool", key], `unknown key, got ${describeValue(obj[key])}${fix}`);
  }
  const poolTools = readToolLists(obj, ["pool"], problems);
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
  return {
    settings,
    ...(defaultSelected !== undefined ? { defaultSelected } : {}),
    ...(Object.keys(poolTools).length ? { poolTools } : {}),
  };
}
