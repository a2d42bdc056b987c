/**
 * What a command needs, resolved lazily and at most once: the configuration,
 * the settings, the directories, the schema cache, and the daemon.
 *
 * @module
 */

import { loadConfig, readConfigLayers } from "../config/load.ts";
import { findConfigLayers } from "../config/discover.ts";
import { type McpxPaths, mcpxPaths } from "../config/paths.ts";
import {
  type ResolvedSettings,
  resolveSettings,
  settingDeclaration,
  settingEnvName,
  settingFlagName,
  type SettingValue,
} from "../config/settings.ts";
import { listingOf, type LoadedConfig } from "../config/types.ts";
import { checkSelection, isSelected, selectionFromSettings } from "../config/profiles.ts";
import type { SchemaCacheFile } from "../discovery/types.ts";
import { namespacesFromCache, type NamespaceView } from "../discovery/view.ts";
import {
  emptySchemaCache,
  needsListing,
  readSchemaCache,
  schemaCachePath,
  seedFromSiblings,
} from "../daemon/schema_cache.ts";
import { connectDaemon } from "./daemon_connect.ts";
import { requestDaemon } from "../client/daemon_request.ts";
import { daemonFiles } from "../daemon/locate.ts";
import type { Io } from "./io.ts";
import { ConfigError, DaemonUnavailableError, McpxError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { withStartProgress } from "./start_progress.ts";
import type { StartingRow } from "../daemon/starting.ts";

/** Inputs of a CLI run. */
export interface ContextOptions {
  io: Io;
  env: Record<string, string>;
  cwd: string;
  /** `--config <path>`. */
  configPath?: string;
  /** `--session <key>`. */
  session?: string;
  /** Setting values from flags, keyed by dotted name. */
  flags: Record<string, string | boolean>;
  /** The spelling typed for each flag in `flags` (`--budget` for `catalog.budget`). */
  flagSpellings?: Record<string, string>;
}

/** The lazily resolved world of one command. */
export class CliContext {
  readonly io: Io;
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly session?: string;
  #options: ContextOptions;
  #config?: Promise<LoadedConfig>;
  #settings?: Promise<ResolvedSettings>;
  #paths?: McpxPaths;

  constructor(options: ContextOptions) {
    this.io = options.io;
    this.env = options.env;
    this.cwd = options.cwd;
    this.session = options.session ?? (options.env.MCPX_SESSION_ID || undefined);
    this.#options = options;
  }

  /** The nearest configuration, validated. @throws {ConfigError}. */
  config(): Promise<LoadedConfig> {
    return this.#config ??= loadConfig({
      cwd: this.cwd,
      env: this.env,
      path: this.#options.configPath,
      compiledCacheDir: this.paths().cacheDir,
    });
  }

  /** Every setting, resolved from defaults, files, environment and flags. @throws {ConfigError}, {UsageError}. */
  settings(): Promise<ResolvedSettings> {
    return this.#settings ??= (async () => {
      const config = await this.config();
      // The nearest file is already parsed; only farther layers (rare) are read here.
      const files = this.#options.configPath || this.env.MCPX_CONFIG
        ? []
        : findConfigLayers({ cwd: this.cwd, env: this.env }).filter((f) => f !== config.path);
      const layers = files.length
        ? await Promise.all(
          files.map(async (file) =>
            (await readConfigLayers({ cwd: this.cwd, env: this.env, path: file }))[0]
          ),
        )
        : [];
      if (config.path) layers.push({ file: config.path, document: config.document });
      const settings = resolveSettings({
        layers,
        env: this.env,
        // A repeatable flag (`--profile a --profile b`) arrives as a list: one comma-separated value.
        flags: Object.fromEntries(
          Object.entries(this.#options.flags).map((
            [k, v],
          ) => [k, Array.isArray(v) ? v.join(",") : v]),
        ),
        flagSpellings: this.#options.flagSpellings,
        cwd: this.cwd,
      });
      const what: Record<string, string> = {
        "paths.state": "it says where daemons' sockets and logs live",
        "paths.cache": "it says where the schema cache and compiled configurations live",
      };
      for (const name of ["paths.state", "paths.cache"]) {
        const source = settings.values[name].source;
        if (source.startsWith("file:")) {
          const variables = [settingEnvName(name), ...(settingDeclaration(name).envAliases ?? [])];
          settings.warnings.push(
            `${name} is set in ${source.slice(5)}, but it is read only from ${
              variables.join(" or ")
            } or ${settingFlagName(name)} (${what[name]}); the file's value is ignored`,
          );
        }
      }
      return settings;
    })();
  }

  /**
   * What the configuration and the settings allow but probably do not mean (an
   * unknown top-level key, an unknown setting), one sentence each: the
   * configuration's warnings, then the settings'. @throws {ConfigError}, {UsageError}.
   */
  async warnings(): Promise<string[]> {
    const config = await this.config();
    const settings = await this.settings();
    return [...(config.warnings ?? []), ...settings.warnings];
  }

  /** One resolved setting's typed value. */
  async setting(name: string): Promise<SettingValue> {
    return (await this.settings()).values[name].value;
  }

  /**
   * True when `--json` (or `output.json`, or `output.format=json`) is in effect.
   * When the configuration cannot be loaded, only the flags and
   * `MCPX_OUTPUT_JSON` / `MCPX_OUTPUT_FORMAT` count, so commands that do not
   * need it (`daemons`, `stop --all`) still run; the others meet the error when
   * they load it.
   */
  async json(): Promise<boolean> {
    let s: ResolvedSettings;
    try {
      s = await this.settings();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const flags = this.#options.flags;
      const yes = (v: unknown) => v === true || /^\s*(true|1|yes|on)\s*$/i.test(String(v ?? ""));
      const json = "output.json" in flags
        ? yes(flags["output.json"])
        : yes(this.env.MCPX_OUTPUT_JSON);
      return json || (flags["output.format"] ?? this.env.MCPX_OUTPUT_FORMAT) === "json";
    }
    return s.values["output.json"].value === true || s.values["output.format"].value === "json";
  }

  /**
   * State, cache and config directories. `paths.state` and `paths.cache` are
   * read from flags and the environment only: they say where the compiled
   * configuration lives, so a configuration file cannot set them (spec 000,
   * "Where a setting is read"); `mcpx config` warns when one tries.
   */
  paths(): McpxPaths {
    const flags = this.#options.flags;
    // A flag wins over both environment spellings, so it replaces them.
    const flag = (name: string): Record<string, string | undefined> => {
      const value = flags[name];
      if (typeof value !== "string") return {};
      const aliases = settingDeclaration(name).envAliases ?? [];
      return {
        [settingEnvName(name)]: value,
        ...Object.fromEntries(aliases.map((alias) => [alias, undefined])),
      };
    };
    return this.#paths ??= mcpxPaths({
      ...this.env,
      ...flag("paths.state"),
      ...flag("paths.cache"),
    });
  }

  /** The schema cache for this configuration, or null when cold. */
  async schemaCache(): Promise<SchemaCacheFile | null> {
    const config = await this.config();
    return readSchemaCache(schemaCachePath(this.paths().cacheDir, config.fingerprint));
  }

  /**
   * The visible namespaces from the schema cache: the servers of the profile
   * selection (`--profile`, `--skip-default`, `--all-profiles`; config/profiles.ts).
   * Selected servers with no usable entry are listed first through the daemon
   * (once; the result is cached); an alias reads its target's entry.
   * @throws {UsageError} For a profile no server has.
   */
  async namespaces(options: { listMissing?: boolean } = {}): Promise<
    NamespaceView & { cache: SchemaCacheFile | null }
  > {
    const config = await this.config();
    const selection = selectionFromSettings((await this.settings()).values);
    checkSelection(config.servers, selection);
    let cache = await this.schemaCache();
    const stale = (s: { name: string; poolId: string }) =>
      needsListing(cache?.servers[listingOf(s).name], listingOf(s).poolId);
    const enabled = config.servers.filter((s) => !s.disabled && isSelected(s, selection));
    // An edited configuration (new fingerprint) starts with the entries its
    // unchanged servers already had, so only what changed is listed.
    if (enabled.some(stale)) {
      cache ??= emptySchemaCache(config.path);
      const listings = enabled.map((s) => listingOf(s));
      seedFromSiblings(this.paths().cacheDir, config.fingerprint, cache, listings);
    }
    // One listing per cache entry: an alias and its target share one.
    const missing = enabled.filter((s, i) =>
      stale(s) && enabled.findIndex((o) => listingOf(o).name === listingOf(s).name) === i
    );
    const unlisted: string[] = [];
    if (options.listMissing !== false && missing.length > 0) {
      try {
        await this.request("list", { servers: missing.map((s) => s.name), missingOnly: true });
        cache = await this.schemaCache();
      } catch (error) {
        // Without a daemon the cached servers can still be shown; say what is missing.
        if (!(error instanceof DaemonUnavailableError)) throw error;
        unlisted.push(
          `could not list ${missing.map((s) => s.name).join(", ")}: ${error.message}`,
        );
      }
    }
    const view = namespacesFromCache(config.servers, cache, selection);
    return { ...view, problems: [...unlisted, ...view.problems], cache };
  }

  /** The daemon's socket path, starting the daemon when none runs. */
  async daemonSocket(): Promise<string> {
    const config = await this.config();
    const settings = await this.settings();
    return await connectDaemon({
      stateDir: this.paths().stateDir,
      cacheDir: this.paths().cacheDir,
      fingerprint: config.fingerprint,
      configPath: config.path,
      startWaitMs: settings.values["daemon.startWait"].value as number,
      idleTimeoutMs: settings.values["daemon.idleTimeout"].value as number,
      logLevel: String(settings.values["logging.level"].value),
      env: this.env,
    });
  }

  /**
   * The daemon's socket, checked with one `health` request (no timer: arming
   * one costs a CLI ~6 ms the first time); only when that fails is the daemon
   * found, started or replaced as {@link daemonSocket} does.
   */
  async liveDaemonSocket(): Promise<string> {
    const socket = await this.existingDaemonSocket();
    try {
      await requestDaemon(socket, "health", {}, { version: VERSION });
      return socket;
    } catch (error) {
      if (!needsOtherDaemon(error)) throw error;
    }
    return await this.daemonSocket();
  }

  /**
   * The places named scripts are searched, nearest first (`paths.scripts`,
   * else the built-in ones: scripts/resolve.ts).
   */
  async scriptDirs(): Promise<string[]> {
    const { scriptDirs } = await import("../scripts/resolve.ts");
    return scriptDirs({
      cwd: this.cwd,
      env: this.env,
      home: this.env.HOME,
      setting: String(await this.setting("paths.scripts")),
    });
  }

  /** The socket of a running daemon for this configuration, without starting one. */
  async existingDaemonSocket(): Promise<string> {
    const config = await this.config();
    return daemonFiles(this.paths().stateDir, config.fingerprint).socket;
  }

  /**
   * Sends an operation to the daemon (started on demand), adding the caller
   * context. On a terminal, a request still pending after a second shows
   * which servers are starting (cli/start_progress.ts).
   */
  request<T = unknown>(operation: string, params: Record<string, unknown> = {}): Promise<T> {
    const sent = this.#request<T>(operation, params);
    if (!this.io.errIsTerminal?.()) return sent;
    return withStartProgress(sent, {
      poll: async () =>
        requestDaemon<StartingRow[]>(await this.existingDaemonSocket(), "starting", {}, {
          version: VERSION,
          timeoutMs: 2000,
        }),
      write: (text) => this.io.err(text),
      columns: terminalColumns() - 1,
    });
  }

  async #request<T>(operation: string, params: Record<string, unknown>): Promise<T> {
    const body = {
      ...params,
      ...(this.session ? { session: this.session } : {}),
      ...(this.env.MCPX_PARENT_SESSION_ID
        ? { parentSession: this.env.MCPX_PARENT_SESSION_ID }
        : {}),
      // The caller's git variables, not the daemon's (an autostarted daemon
      // inherits whoever ran mcpx first): spec 000, "Finding the repository
      // without git".
      ...(this.env.GIT_DIR ? { gitDir: this.env.GIT_DIR } : {}),
      ...(this.env.GIT_WORK_TREE ? { gitWorkTree: this.env.GIT_WORK_TREE } : {}),
      cwd: this.cwd,
      pid: Deno.ppid,
    };
    // Straight to the socket, stating our version: a daemon of another version
    // refuses without running anything, and only then (or when none answers)
    // is the daemon found, started or replaced. Saves a round trip per call.
    try {
      return await requestDaemon<T>(await this.existingDaemonSocket(), operation, body, {
        version: VERSION,
      });
    } catch (error) {
      if (!needsOtherDaemon(error)) throw error;
    }
    return await requestDaemon<T>(await this.daemonSocket(), operation, body, { version: VERSION });
  }
}

/** The terminal's width in columns, or 80 when it cannot be read. */
function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns || 80;
  } catch {
    return 80;
  }
}

/**
 * True when a request failed because no daemon of this version answers (none
 * runs, or one of another version refused): the daemon is then found, started
 * or replaced, and the request sent again.
 */
function needsOtherDaemon(error: unknown): boolean {
  return error instanceof DaemonUnavailableError ||
    (error instanceof McpxError && error.code === "version-mismatch");
}
