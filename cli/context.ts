/**
 * What a command needs, resolved lazily and at most once: the configuration,
 * the settings, the directories, the schema cache, and the daemon.
 *
 * @module
 */

import { loadConfig, readConfigLayers } from "../config/load.ts";
import {
  type ConfigOrigin,
  configOrigin,
  findConfigLayers,
  noConfigMessage,
} from "../config/discover.ts";
import { TRUST_SETTING, trustChecked, TrustGate } from "../config/trust.ts";
import { type McpxPaths, mcpxPaths } from "../config/paths.ts";
import {
  parsePathList,
  parseSettingValue,
  type ResolvedSettings,
  settingDeclaration,
  settingEnvName,
  settingEnvSpelling,
  settingFlagName,
  type SettingValue,
} from "../config/settings.ts";
import type { SettingsLayer } from "../config/resolve_settings.ts";
import { resolveTrustedSettings } from "../config/project_settings.ts";
import { settingValues } from "../engine/daemon_settings.ts";
import { listingOf, type LoadedConfig, type ServerSpec } from "../config/types.ts";
import { checkSelection, isSelected, selectionFromSettings } from "../config/profiles.ts";
import type { SchemaCacheFile } from "../discovery/types.ts";
import { namespacesFromCache, type NamespaceView } from "../discovery/view.ts";
import {
  emptySchemaCache,
  needsListing,
  readSchemaCache,
  schemaCachePath,
  seedFromSiblings,
} from "../engine/schema_cache.ts";
import { connectDaemon, type DaemonHealth } from "./daemon_connect.ts";
import { requestDaemon, type RequestOptions } from "../wire/daemon_request.ts";
import { switchOn, traceLine } from "../wire/wire.ts";
import { daemonFiles, recordedDaemonPid } from "../wire/locate.ts";
import { processStart, sweepOrphanGroups } from "../engine/process_groups.ts";
import type { Io } from "../core/io.ts";
import { ConfigError, DaemonLostError, DaemonUnavailableError, McpxError } from "../core/errors.ts";
import { VERSION } from "../core/version.ts";
import { parseTraceIds, TRACE_IDS_VARIABLE, type TraceIds } from "../logs/trace_ids.ts";
import { withStartProgress } from "./start_progress.ts";
import type { StartingRow } from "../engine/starting.ts";
import { own } from "../core/own.ts";

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
  /** `--session <key>` as given on the command line (no MCPX_SESSION_ID fallback). */
  readonly sessionFlag?: string;
  #options: ContextOptions;
  /** The configuration as loaded, before {@link config} marks untrusted servers. */
  #loaded?: Promise<LoadedConfig>;
  #config?: Promise<LoadedConfig>;
  #trust?: Promise<TrustGate | undefined>;
  #settings?: Promise<ResolvedSettings>;
  #paths?: McpxPaths;
  /** The pid of the daemon last found answering (health), for messages. */
  #daemonPid?: number;

  constructor(options: ContextOptions) {
    this.io = options.io;
    this.env = options.env;
    this.cwd = options.cwd;
    this.sessionFlag = options.session;
    this.session = options.session ?? (options.env.MCPX_SESSION_ID || undefined);
    this.#options = options;
  }

  /**
   * The nearest configuration, validated, with each server a project's file
   * has not trusted with what it runs marked `unavailable` (code `untrusted`;
   * config/trust.ts), so no command lists or starts it. @throws {ConfigError}.
   */
  config(): Promise<LoadedConfig> {
    return this.#config ??= (async () => {
      const config = await this.#load();
      const gate = await this.trustGate();
      if (!gate) return config;
      const servers = gate.mark(config.servers);
      // A damaged store trusts less than it did: say so, naming the file, on every command.
      for (const problem of gate.storeProblems) this.io.err(`warning: ${problem}\n`);
      return { ...config, servers };
    })();
  }

  #load(): Promise<LoadedConfig> {
    return this.#loaded ??= loadConfig({
      cwd: this.cwd,
      env: this.env,
      path: this.#options.configPath,
      compiledCacheDir: this.paths().cacheDir,
      places: this.#configPlaces(),
    });
  }

  /**
   * Where configuration file `path` came from: named by `--config` or
   * `MCPX_CONFIG`, one of the user's own, or a project's (config/discover.ts).
   */
  origin(path: string): ConfigOrigin {
    return configOrigin(path, {
      cwd: this.cwd,
      env: this.env,
      places: this.#configPlaces(),
      named: this.#options.configPath !== undefined,
    });
  }

  /**
   * True when the configuration's servers start only once trusted: a
   * project's file under `security.trustProjectConfigs=ask` (decision 0018).
   */
  async trustChecked(): Promise<boolean> {
    const { path } = await this.#load();
    // The setting is read only for a project's file, so nothing else depends on settings resolving.
    if (path === null || this.origin(path) !== "project") return false;
    return trustChecked("project", await this.setting(TRUST_SETTING));
  }

  /** The trust gate of the configuration when {@link trustChecked}, else undefined. */
  trustGate(): Promise<TrustGate | undefined> {
    return this.#trust ??= (async () => {
      if (!(await this.trustChecked())) return undefined;
      const config = await this.#load();
      return await TrustGate.open({
        file: config.path!,
        realPath: config.realPath ?? config.path!,
        document: config.document,
        stateDir: this.paths().stateDir,
      });
    })();
  }

  /**
   * The places of `paths.config`, from its flag or variable only: it says
   * where the files are, so no file can set it (spec 000, "Where a setting is
   * read"); absent: the built-in search.
   */
  #configPlaces(): (string | null)[] | undefined {
    const flag = this.#options.flags["paths.config"];
    const variable = settingEnvSpelling("paths.config", this.env);
    const raw = typeof flag === "string" ? flag : variable ? this.env[variable] : undefined;
    if (raw === undefined) return undefined;
    const decl = settingDeclaration("paths.config");
    const value = parseSettingValue(decl, raw, { baseDir: this.cwd, home: this.env.HOME });
    return parsePathList(String(value));
  }

  /** Every setting, resolved from defaults, files, environment and flags. @throws {ConfigError}, {UsageError}. */
  settings(): Promise<ResolvedSettings> {
    return this.#settings ??= (async () => {
      const config = await this.#load();
      // The nearest file is already parsed; only farther layers (rare) are read here.
      const files = this.#options.configPath || this.env.MCPX_CONFIG
        ? []
        : findConfigLayers({ cwd: this.cwd, env: this.env, places: this.#configPlaces() })
          .filter((f) => f !== config.path);
      // A project's file cannot set what decides whether it is trusted (`userOnly` settings).
      const project = (file: string) => this.origin(file) === "project";
      const found: SettingsLayer[] = files.length
        ? await Promise.all(
          files.map(async (file) => ({
            ...(await readConfigLayers({ cwd: this.cwd, env: this.env, path: file }))[0],
            project: project(file),
          })),
        )
        : [];
      if (config.path) {
        found.push({
          file: config.path,
          ...(config.realPath ? { realPath: config.realPath } : {}),
          document: config.document,
          project: project(config.path),
        });
      }
      // A project's file sets nothing until trusted with its settings (decision 0022).
      const settings = await resolveTrustedSettings({
        layers: found,
        stateDir: this.paths().stateDir,
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
        "paths.config": "it says where configuration files are searched",
      };
      for (const name of Object.keys(what)) {
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

  /**
   * The durable log's directory: `logging.dir`, else `<paths.state>/logs`. A
   * configuration that cannot be loaded does not stop `mcpx log` from reading
   * the log, so then only the flag and the environment count.
   */
  async logsDir(): Promise<string> {
    const { logsDir } = await import("../logs/writer.ts");
    const setting = String(await this.settingBesideConfig("logging.dir"));
    return logsDir(this.paths().stateDir, setting);
  }

  /**
   * One setting's typed value for a command that works without a loadable
   * configuration (`mcpx log`): resolved as usual, or, when the configuration
   * cannot be loaded, from the flag, else the environment, else the default.
   *
   * @throws {ConfigError} for a flag or variable holding an invalid value.
   */
  async settingBesideConfig(name: string): Promise<SettingValue> {
    try {
      return await this.setting(name);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
    }
    const decl = settingDeclaration(name);
    const flag = this.#options.flags[name];
    const variable = settingEnvSpelling(name, this.env);
    const raw = flag !== undefined
      ? String(flag)
      : variable
      ? this.env[variable] ?? ""
      : decl.default;
    try {
      return parseSettingValue(decl, raw, { baseDir: this.cwd, home: this.env.HOME });
    } catch (error) {
      const source = flag !== undefined ? settingFlagName(name) : variable ?? "default";
      throw new ConfigError("environment", source, (error as Error).message);
    }
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
   * @param options.listMissing false: show what the cache has, list nothing.
   * @param options.optional true: with no configuration file, an empty view;
   *   otherwise that is an error, since a command that names a namespace
   *   cannot do anything without one.
   * @throws {UsageError} For a profile no server has.
   * @throws {McpxError} Code `no-config` when no configuration file was found
   *   (and not `optional`): says where the search looked and how to make one.
   */
  async namespaces(options: { listMissing?: boolean; optional?: boolean } = {}): Promise<
    NamespaceView & { cache: SchemaCacheFile | null }
  > {
    const config = await this.config();
    if (config.path === null && !options.optional) {
      throw new McpxError("no-config", noConfigMessage(config.searched ?? [], this.cwd));
    }
    const selection = selectionFromSettings((await this.settings()).values);
    checkSelection(config.servers, selection);
    let cache = await this.schemaCache();
    const stale = (s: ServerSpec) =>
      needsListing(own(cache?.servers, listingOf(s).name), listingOf(s).listingId);
    // A server the configuration keeps from starting (an unset `${VAR}`) is not listed:
    // the view shows it as an error, and every other server is listed as usual.
    const enabled = config.servers.filter((s) =>
      !s.disabled && !s.unavailable && isSelected(s, selection)
    );
    // An edited configuration (new fingerprint) starts with the entries its
    // unchanged servers already had, so only what changed is listed.
    if (enabled.some(stale)) {
      cache ??= emptySchemaCache(config.path);
      const listings = enabled.map((s) => listingOf(s));
      seedFromSiblings(this.paths().cacheDir, config.fingerprint, cache, listings);
    }
    // One listing per cache entry (an alias and its target share one); a set, not a search each.
    const seen = new Set<string>();
    const missing = enabled.filter((s) =>
      !seen.has(listingOf(s).name) && seen.add(listingOf(s).name) && stale(s)
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
    const { socket, pid } = await connectDaemon({
      stateDir: this.paths().stateDir,
      cacheDir: this.paths().cacheDir,
      fingerprint: config.fingerprint,
      configPath: config.path,
      startWaitMs: settings.values["daemon.startWait"].value as number,
      settings: settingValues(settings),
      env: this.env,
      trustCheck: await this.trustChecked(),
    });
    this.#daemonPid = pid;
    return socket;
  }

  /**
   * The daemon's socket, checked with one `health` request (no timer: arming
   * one costs a CLI ~6 ms the first time); only when that fails is the daemon
   * found, started or replaced as {@link daemonSocket} does.
   */
  async liveDaemonSocket(): Promise<string> {
    const socket = await this.existingDaemonSocket();
    try {
      const health = await requestDaemon<DaemonHealth>(socket, "health", {}, { version: VERSION });
      // A daemon that checks trust otherwise than this command would is replaced.
      if (!health.stopping && (health.trustCheck ?? false) === await this.trustChecked()) {
        this.#daemonPid = health.pid;
        return socket;
      }
    } catch (error) {
      if (!needsOtherDaemon(error)) throw error;
    }
    return await this.daemonSocket();
  }

  /**
   * The pid of the daemon {@link liveDaemonSocket} or {@link daemonSocket}
   * found, once one has (a script's client names it when its connection is lost).
   */
  get daemonPid(): number | undefined {
    return this.#daemonPid;
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

  /**
   * The caller's `MCPX_TRACE_IDS`, read (logs/trace_ids.ts): each pair lands
   * on every record this command causes as `id.<key>`.
   * @throws {ConfigError} When the value cannot be read, naming the variable.
   */
  traceIds(): TraceIds {
    try {
      return parseTraceIds(this.env.MCPX_TRACE_IDS ?? "");
    } catch (error) {
      throw new ConfigError(
        "environment",
        TRACE_IDS_VARIABLE,
        `${(error as Error).message}; fix it or unset ${TRACE_IDS_VARIABLE}`,
      );
    }
  }

  /** `MCPX_TRACE_IDS` as the daemon takes it: the text as written, checked first. */
  #traceIds(): { traceIds?: string } {
    const text = this.env.MCPX_TRACE_IDS;
    if (!text) return {};
    this.traceIds();
    return { traceIds: text };
  }

  /** The socket of a running daemon for this configuration, without starting one. */
  async existingDaemonSocket(): Promise<string> {
    const config = await this.config();
    return daemonFiles(this.paths().stateDir, config.fingerprint).socket;
  }

  /**
   * Sends an operation to the daemon (started on demand), adding the caller
   * context. Sent again (to a daemon found, started or replaced) only when it
   * provably never ran: nothing answered and nothing was written, or the
   * daemon refused it unrun (`version-mismatch`, `daemon-stopping`). On a
   * terminal, a request still pending after a second shows which servers are
   * starting (cli/start_progress.ts).
   *
   * @throws {DaemonLostError} when the daemon was lost after the request was
   *   written (it may have run): the daemon's orphaned servers are ended first.
   * @throws the daemon's own errors ({@link McpxError} with its `code`).
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
      write: (text) => this.io.errRaw ? this.io.errRaw(text) : this.io.err(text),
      columns: terminalColumns() - 1,
    });
  }

  async #request<T>(operation: string, params: Record<string, unknown>): Promise<T> {
    const trace = operation === "call" && (await this.setting("logging.trace")) === true;
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
      ...this.#traceIds(),
      // The daemon read its environment once, at its start: the caller's
      // `logging.trace` (MCPX_TRACE) travels with each call instead.
      ...(trace ? { trace: true } : {}),
      // What may start servers says whether it checks trust; a daemon that
      // checks otherwise refuses it unrun (`trust-mismatch`) and is replaced.
      ...(STARTS_SERVERS.has(operation) ? { trustCheck: await this.trustChecked() } : {}),
      cwd: this.cwd,
      pid: Deno.ppid,
      // What the daemon could not say on its own (records it could not write, damaged state).
      notices: true,
      // The daemon refuses a call outside the caller's profiles (decision 0015).
      selection: selectionFromSettings((await this.settings()).values),
    };
    const { stateDir } = this.paths();
    const { fingerprint } = await this.config();
    const options: RequestOptions = {
      version: VERSION,
      daemonPid: () => this.#daemonPid ?? recordedDaemonPid(stateDir, fingerprint),
      onTrace: (t) => this.io.err(traceLine(t) + "\n"),
      onNotices: (notices) => {
        for (const notice of notices) this.io.err(`warning: ${notice.message}\n`);
      },
    };
    const send = async (socket: string) => {
      try {
        return await requestDaemon<T>(socket, operation, body, options);
      } catch (error) {
        // Its servers would otherwise keep running (and writing) with no daemon to stop them.
        if (error instanceof DaemonLostError) await this.sweepOrphans();
        throw error;
      }
    };
    // Straight to the socket, stating our version: a daemon of another version
    // refuses without running anything, and only then (or when none answers)
    // is the daemon found, started or replaced. Saves a round trip per call.
    try {
      return await send(await this.existingDaemonSocket());
    } catch (error) {
      if (!needsOtherDaemon(error)) throw error;
    }
    return await send(await this.daemonSocket());
  }

  /**
   * The variables that carry setting `logging.trace` to a script's client,
   * which reads only the environment: set (to agree with each other) only
   * when the resolved value is not what the inherited variables say, e.g. it
   * came from a file or a flag.
   */
  async traceEnv(): Promise<Record<string, string>> {
    const on = (await this.setting("logging.trace")) === true;
    if (on === switchOn(this.env.MCPX_TRACE || this.env.MCPX_LOGGING_TRACE)) return {};
    const value = on ? "1" : "0";
    return {
      MCPX_TRACE: value,
      ...(this.env.MCPX_LOGGING_TRACE ? { MCPX_LOGGING_TRACE: value } : {}),
    };
  }

  /**
   * Ends the process groups of this configuration's dead daemons
   * (engine/process_groups.ts, decision 0006); live daemons' are left alone.
   */
  async sweepOrphans(): Promise<void> {
    const config = await this.config();
    const { groups } = daemonFiles(this.paths().stateDir, config.fingerprint);
    await sweepOrphanGroups([groups]);
  }

  /**
   * After work that talked to the daemon behind this CLI's back (a script's
   * calls): when that daemon has died meanwhile, ends the servers it left
   * ({@link sweepOrphans}). Costs one process lookup when it lives.
   */
  async sweepIfDaemonDied(): Promise<void> {
    if (this.#daemonPid === undefined) return;
    const now = processStart(this.#daemonPid);
    if (now === undefined || now.zombie) await this.sweepOrphans();
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
 * True when a request failed without running because no daemon of this
 * version answers (none runs, one of another version refused, or one is
 * stopping): the daemon is then found, started or replaced, and the request
 * sent again. Never true once a request may have run ({@link DaemonLostError}).
 */
function needsOtherDaemon(error: unknown): boolean {
  return error instanceof DaemonUnavailableError ||
    (error instanceof McpxError && REFUSED_UNRUN.has(error.code));
}

/** Daemon error codes that mean the request was refused before anything ran (daemon/http.ts). */
const REFUSED_UNRUN = new Set(["version-mismatch", "daemon-stopping", "trust-mismatch"]);

/** Operations that may start a server, so carry the caller's `trustCheck` (decision 0018). */
const STARTS_SERVERS = new Set(["call", "list"]);
