/**
 * mcpx as a library: load a configuration, read what the schema cache knows,
 * search tools, render TypeScript signatures, and talk to (or run) the daemon
 * that keeps MCP servers warm.
 *
 * ```ts
 * import { loadConfig, searchTools, namespacesFromCache } from "@mcpx/mcpx";
 * ```
 *
 * The command is `cli/main.ts` (`deno task install` puts it on PATH as `mcpx`).
 *
 * @module
 */

export { loadConfig, type LoadConfigOptions, readConfigLayers } from "./config/load.ts";
export { parseConfig } from "./config/parse.ts";
export { findConfig, findConfigLayers } from "./config/discover.ts";
export { type McpxPaths, mcpxPaths } from "./config/paths.ts";
export { type SettingDeclaration, SETTINGS } from "./config/settings.ts";
export {
  type ResolvedSetting,
  type ResolvedSettings,
  resolveSettings,
} from "./config/resolve_settings.ts";
export { isIdentifier, toIdentifier } from "./config/identifiers.ts";
export { compileToolFilter } from "./config/tool_filter.ts";
export {
  DEFAULT_POOL,
  type LoadedConfig,
  type PoolSettings,
  type Scope,
  SCOPES,
  type ServerSpec,
  type Sharing,
  SHARINGS,
  type ToolFilter,
  type TransportKind,
  type WhenFull,
} from "./config/types.ts";
export type {
  CachedServer,
  CachedTool,
  NamespaceEntry,
  SchemaCacheFile,
  ToolEntry,
} from "./discovery/types.ts";
export { findNamespace, findTool, namespacesFromCache } from "./discovery/view.ts";
export { type SearchHit, type SearchResult, searchTools } from "./discovery/search.ts";
export { buildCatalog } from "./discovery/catalog.ts";
export { renderNamespace, renderTypes, toolDeclaration } from "./discovery/typescript.ts";
export { countTokens } from "./discovery/tokens.ts";
export { readSchemaCache, schemaCachePath } from "./engine/schema_cache.ts";
export { requestDaemon } from "./wire/daemon_request.ts";
export { generateClient, generateGlobals } from "./client/generate.ts";
export { ensureClient } from "./client/client_file.ts";
export { buildLauncher, type LauncherOptions } from "./launcher/default_template.ts";
export { resolveScript, scriptDirs } from "./scripts/resolve.ts";
export { SCRIPT_ENV, scriptEnv, type ScriptFacts } from "./scripts/script_env.ts";
export { connectDaemon } from "./cli/daemon_connect.ts";
export { runDaemon, type RunDaemonOptions } from "./daemon/main.ts";
export { main } from "./cli/main.ts";
export {
  ConfigError,
  DaemonLostError,
  DaemonUnavailableError,
  EXIT,
  McpxError,
  NotFoundError,
  ServerError,
  type TimeoutBound,
  TimeoutError,
  UsageError,
} from "./core/errors.ts";
export { VERSION } from "./core/version.ts";
