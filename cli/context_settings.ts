/**
 * The configuration side of a command's context: the configuration (its
 * untrusted servers marked), the settings, the directories and the values
 * derived from them, each resolved lazily and at most once. What talks to the
 * daemon is cli/context_daemon.ts; cli/context.ts joins the two.
 *
 * @module
 */

import { loadConfig, readConfigLayers } from "../config/load.ts";
import { type ConfigOrigin, configOrigin, findConfigLayers } from "../config/discover.ts";
import { TRUST_SETTING, trustChecked, TrustGate } from "../config/trust.ts";
import { type McpxPaths, mcpxPaths } from "../config/paths.ts";
import {
  parsePathList,
  parseSettingValue,
  settingDeclaration,
  settingEnvName,
  settingEnvSpelling,
  settingFlagName,
  type SettingName,
  settingOf,
  type SettingValueOf,
} from "../config/settings.ts";
import type { ResolvedSettings, SettingsLayer } from "../config/resolve_settings.ts";
import { resolveTrustedSettings } from "../config/project_settings.ts";
import type { LoadedConfig } from "../config/types.ts";
import type { DirectTarget } from "../config/direct_target.ts";
import type { SchemaIndex } from "../discovery/types.ts";
import { readSchemaIndex, schemaCachePath } from "../engine/schema_cache.ts";
import { switchOn, type WireNotification } from "../wire/wire.ts";
import type { Io } from "../core/io.ts";
import { ConfigError, McpxError } from "../core/errors.ts";
import { jsonWithoutFiles } from "./output_mode.ts";
import { type ShadowedConfig, shadowedConfigs } from "../config/shadowed.ts";
import { parseTraceIds, TRACE_IDS_VARIABLE, type TraceIds } from "../logs/trace_ids.ts";
import type { ScriptSpawner } from "../runner/host.ts";

/** Inputs of a CLI run. */
export interface ContextOptions {
  io: Io;
  env: Record<string, string>;
  cwd: string;
  /** `--config <path>`, or a direct target's generated file (with {@link direct}). */
  configPath?: string;
  /**
   * The server named on the command line (cli/direct_target.ts), whose
   * generated file `configPath` is: that file is named like `--config`, but
   * settings still come from the usual search, each file judged by where it
   * was found (decision 0033).
   */
  direct?: DirectTarget;
  /** `--session <key>`. */
  session?: string;
  /**
   * Whose questions this command's calls raise and which it sees, when not
   * its session's (wire/caller.ts `owner`): a client of `mcpx serve` that
   * named no session is a caller of its own (decision 0059).
   */
  owner?: string;
  /**
   * Told each notification of the server of a tool call this command makes
   * (its progress and log messages), in order and before the call's answer:
   * `mcpx serve` passes them on to its client (decisions 0073, 0078).
   */
  onNotification?: (notification: WireNotification) => void;
  /** Setting values from flags, keyed by dotted name. */
  flags: Record<string, string | boolean>;
  /**
   * Aborts what the command sends the daemon (the connection closes, so the
   * daemon stops the upstream call) and the script it runs: `mcpx serve`
   * passes its client's `notifications/cancelled` here (decision 0044).
   */
  signal?: AbortSignal;
  /**
   * What a script run reads as stdin: the command's own (default), or
   * nothing, for `mcpx serve` over stdio, whose stdin is its client's messages.
   */
  scriptStdin?: "inherit" | "null";
  /** The spelling typed for each flag in `flags` (`--budget` for `catalog.budget`). */
  flagSpellings?: Record<string, string>;
  /**
   * The process the caller's requests are scoped by (the `pid` scope:
   * engine/scope_key.ts): default this process's parent, the shell that ran
   * `mcpx`. A command relayed to the front process (cli/relay/front.ts) runs
   * in another process, so its client sends its own parent's.
   */
  callerPid?: number;
  /**
   * True when the command runs in a process other commands share (the front,
   * cli/relay/front.ts): what needs a process of its own (`daemon.inline`)
   * throws `RunInCallerError` (core/errors.ts) before it starts.
   */
  shared?: boolean;
  /**
   * Who starts a script's runtime when not this process (runner/host.ts
   * `RunnerHost.spawner`): a run relayed to the front has its thin client
   * start it, with the caller's streams.
   */
  spawner?: ScriptSpawner;
}

/**
 * What one command reads before it talks to a daemon: the configuration, the
 * settings, the directories, each resolved lazily and at most once.
 * `CliContext` (cli/context.ts) extends it with the daemon.
 */
export class SettingsContext {
  readonly io: Io;
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly session?: string;
  /** `--session <key>` as given on the command line (no MCPX_SESSION_ID fallback). */
  readonly sessionFlag?: string;
  /** {@link ContextOptions.owner}. */
  readonly owner?: string;
  /** {@link ContextOptions.onNotification}. */
  readonly onNotification?: (notification: WireNotification) => void;
  /** {@link ContextOptions.signal}. */
  readonly signal?: AbortSignal;
  /** {@link ContextOptions.scriptStdin}. */
  readonly scriptStdin?: "inherit" | "null";
  /** {@link ContextOptions.callerPid}. */
  readonly callerPid?: number;
  /** {@link ContextOptions.shared}. */
  readonly shared?: boolean;
  /** {@link ContextOptions.spawner}. */
  readonly spawner?: ScriptSpawner;
  #options: ContextOptions;
  /** The configuration as loaded, before {@link config} marks untrusted servers. */
  #loaded?: Promise<LoadedConfig>;
  #config?: Promise<LoadedConfig>;
  #trust?: Promise<TrustGate | undefined>;
  #settings?: Promise<ResolvedSettings>;
  #paths?: McpxPaths;

  constructor(options: ContextOptions) {
    this.io = options.io;
    this.env = options.env;
    this.cwd = options.cwd;
    this.sessionFlag = options.session;
    this.session = options.session ?? (options.env.MCPX_SESSION_ID || undefined);
    this.owner = options.owner;
    if (options.onNotification) this.onNotification = options.onNotification;
    this.signal = options.signal;
    this.scriptStdin = options.scriptStdin;
    if (options.callerPid !== undefined) this.callerPid = options.callerPid;
    if (options.shared) this.shared = true;
    if (options.spawner) this.spawner = options.spawner;
    this.#options = options;
  }

  /**
   * This command's options with `changes` applied: what `mcpx serve` builds
   * each tool call's own context from (the same configuration and setting
   * flags, the call's session, output and signal).
   */
  optionsWith(changes: Partial<ContextOptions>): ContextOptions {
    return { ...this.#options, ...changes };
  }

  /** The server named on the command line, when the command has one (cli/direct_target.ts). */
  get direct(): DirectTarget | undefined {
    return this.#options.direct;
  }

  /**
   * The nearest configuration, validated, with each server a project's file
   * has not trusted with what it runs marked `unavailable` (code `untrusted`;
   * config/trust.ts), so no command lists or starts it. @throws {ConfigError}.
   */
  config(): Promise<LoadedConfig> {
    return this.#config ??= (async () => {
      const loaded = await this.#load();
      const gate = await this.trustGate();
      let config = loaded;
      if (gate) {
        config = { ...loaded, servers: gate.mark(loaded.servers) };
        // A damaged store trusts less than it did: say so, naming the file, on every command.
        for (const problem of gate.storeProblems) this.io.err(`warning: ${problem}\n`);
      }
      return await this.#derived(config);
    })();
  }

  /**
   * The configuration with the namespaces `paths.adapters` and `paths.apis`
   * declare (config/derived_servers.ts, decision 0052); the module is loaded
   * only when one of them is set.
   */
  async #derived(config: LoadedConfig): Promise<LoadedConfig> {
    const adapters = await this.setting("paths.adapters");
    const apis = await this.setting("paths.apis");
    if (adapters === "" && apis === "") return config;
    const { withDerivedServers } = await import("../config/derived_servers.ts");
    const values = { "paths.adapters": adapters, "paths.apis": apis };
    return await withDerivedServers(config, (name) => values[name], this.env);
  }

  /**
   * The configuration as loaded, before {@link config} marks untrusted
   * servers: what `mcpx doctor` reads when the settings that trust decision
   * needs do not resolve. @throws {ConfigError}.
   */
  loadedConfig(): Promise<LoadedConfig> {
    return this.#load();
  }

  /** What this command's configuration searches found at each candidate (config/discover.ts). */
  #probed = new Map<string, boolean>();

  #load(): Promise<LoadedConfig> {
    return this.#loaded ??= loadConfig({
      cwd: this.cwd,
      env: this.env,
      path: this.#options.configPath,
      compiledCacheDir: this.paths().cacheDir,
      places: this.#configPlaces(),
      probed: this.#probed,
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
      named: this.#options.configPath !== undefined &&
        (this.#options.direct === undefined || path === this.#options.configPath),
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
        hashes: config.runnableHashes,
      });
    })();
  }

  /**
   * The existing configuration files whose servers this command does not use,
   * a nearer one being in use (config/shadowed.ts), nearest first; empty when
   * `--config`, `MCPX_CONFIG` or a direct target names the file.
   * @throws {ConfigError} As the search for configuration files.
   */
  async shadowedConfigs(): Promise<ShadowedConfig[]> {
    if (this.#options.configPath !== undefined) return [];
    const { path } = await this.#load();
    return shadowedConfigs(path, {
      cwd: this.cwd,
      env: this.env,
      places: this.#configPlaces(),
      probed: this.#probed,
    });
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
      const files = (this.#options.configPath && !this.#options.direct) || this.env.MCPX_CONFIG
        ? []
        : findConfigLayers({
          cwd: this.cwd,
          env: this.env,
          places: this.#configPlaces(),
          probed: this.#probed,
        })
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
  async setting<N extends SettingName>(name: N): Promise<SettingValueOf<N>> {
    return settingOf(await this.settings(), name);
  }

  /**
   * True when `--json` itself is on this command line; `output.json` from a
   * file or the environment does not count. For the commands whose plain
   * output is consumed by another program (`completion`, `man`,
   * `completion-words`): a shell sourcing `mcpx completion bash` with
   * MCPX_OUTPUT_JSON exported must still get a script.
   */
  get jsonFlag(): boolean {
    return this.#options.flags["output.json"] === true;
  }

  /**
   * True when `--json` (or `output.json`, or `output.format=json`) is in effect:
   * the one decision of the output mode, for a command's answer and for its
   * error alike (cli/command_line.ts asks it for the error document; issue 24).
   * When the settings cannot be resolved (a broken configuration, a bad flag
   * value), the flags and the environment decide, each value read as the
   * settings read it (`1`, `yes`, `true`, `on`), so commands that do not need
   * the configuration (`daemons`, `stop --all`) still run and an error is still
   * a JSON document; the others meet the error when they load it.
   */
  async json(): Promise<boolean> {
    let s: ResolvedSettings;
    try {
      s = await this.settings();
    } catch (error) {
      if (!(error instanceof McpxError)) throw error;
      return jsonWithoutFiles(this.#options.flags, this.env);
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
    const setting = await this.settingBesideConfig("logging.dir");
    return logsDir(this.paths().stateDir, setting);
  }

  /**
   * One setting's typed value for a command that works without a loadable
   * configuration (`mcpx log`): resolved as usual, or, when the configuration
   * cannot be loaded, from the flag, else the environment, else the default.
   *
   * @throws {ConfigError} for a flag or variable holding an invalid value.
   */
  async settingBesideConfig<N extends SettingName>(name: N): Promise<SettingValueOf<N>> {
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
      const value = parseSettingValue(decl, raw, { baseDir: this.cwd, home: this.env.HOME });
      return settingOf({ values: { [name]: { value } } }, name);
    } catch (error) {
      const source = flag !== undefined ? settingFlagName(name) : variable ?? "default";
      throw new ConfigError("environment", source, (error as Error).message);
    }
  }

  /**
   * The schema cache's index for this configuration, or null when cold: every
   * server's entry, tools without their schemas (engine/schema_cache.ts
   * `readSchemaIndex`; `loadEntries` reads whole ones).
   */
  async schemaCache(): Promise<SchemaIndex | null> {
    const config = await this.config();
    return readSchemaIndex(schemaCachePath(this.paths().cacheDir, config.fingerprint));
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
      setting: await this.setting("paths.scripts"),
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
}
