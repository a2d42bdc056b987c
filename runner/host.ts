/**
 * What a script run needs from the command that starts it: the resolved
 * configuration and settings, the directories, the daemon, and where to
 * write. The runner names only this, so it does not reach up into `cli/`
 * (CONVENTIONS.md 13; decision 0021); the CLI's `CliContext` (cli/context.ts)
 * has every member and is passed as it is.
 *
 * @module
 */

import type { Io } from "../core/io.ts";
import type { McpxPaths } from "../config/paths.ts";
import type { ResolvedSettings } from "../config/resolve_settings.ts";
import type { LoadedConfig } from "../config/types.ts";
import type { NamespaceView } from "../discovery/view.ts";
import type { ListingWait } from "../engine/tool_listing.ts";
import type { TraceIds } from "../logs/trace_ids.ts";

/** The command a script runs under: each value resolved at most once, by the host. */
export interface RunnerHost {
  /** Where mcpx's own output goes, and the script's when it passes through mcpx. */
  readonly io: Io;
  /** The caller's environment: the script's starts as a copy of it. */
  readonly env: Record<string, string>;
  /** The caller's working directory: the script's, and the base of relative inputs. */
  readonly cwd: string;
  /** `--session <key>` or `MCPX_SESSION_ID`; absent: the run mints its own session. */
  readonly session?: string;
  /**
   * The pid of the daemon {@link liveDaemonSocket} found, once it has: the
   * script's client names it when its connection is lost.
   */
  readonly daemonPid: number | undefined;
  /** Stops the script (SIGTERM, as --timeout does) when aborted: `mcpx serve`'s cancellation. */
  readonly signal?: AbortSignal;
  /** The script's stdin: the caller's (default) or none (`mcpx serve` over stdio). */
  readonly scriptStdin?: "inherit" | "null";
  /**
   * Who starts the script's runtime, when not this process: the thin client
   * of a run relayed to the front (cli/relay/front_spawn.ts), so the runtime
   * has the caller's streams and ends with the caller. Absent: this process.
   */
  readonly spawner?: ScriptSpawner;

  /** Every setting, resolved from defaults, files, environment and flags. @throws {ConfigError}, {UsageError}. */
  settings(): Promise<ResolvedSettings>;
  /** True when `--json` (or `output.json`, or `output.format=json`) is in effect. */
  json(): Promise<boolean>;
  /** The state, cache and config directories. */
  paths(): McpxPaths;
  /** The nearest configuration, validated, untrusted servers marked unavailable. @throws {ConfigError}. */
  config(): Promise<LoadedConfig>;
  /**
   * The visible namespaces, servers the cache lacks listed first through the
   * daemon. `optional`: with no configuration file, an empty view rather than
   * an error. `wait`: how long to wait for listings (absent: until each
   * ends); those still in progress are the view's `starting` (decision 0010).
   * @throws {UsageError} for a profile no server has.
   */
  namespaces(options: { optional?: boolean; wait?: ListingWait }): Promise<NamespaceView>;
  /** The daemon's socket path, checked to answer, the daemon started or replaced when needed. */
  liveDaemonSocket(): Promise<string>;
  /** The places named scripts are searched, nearest first (scripts/resolve.ts). */
  scriptDirs(): Promise<string[]>;
  /** The variables that carry setting `logging.trace` to the script's client (empty when inherited ones agree). */
  traceEnv(): Promise<Record<string, string>>;
  /** The caller's `MCPX_TRACE_IDS`, read (logs/trace_ids.ts). @throws {ConfigError} when unreadable. */
  traceIds(): TraceIds;
  /** The durable log's directory: `logging.dir`, else `<paths.state>/logs`. */
  logsDir(): Promise<string>;
  /** After the script's own calls: ends the servers of the daemon if it died meanwhile. */
  sweepIfDaemonDied(): Promise<void>;
  /**
   * Sends daemon operation `operation` (`endRun`, `endSession`) with its
   * parameters and the caller context. @throws {McpxError} the daemon's errors, by `code`.
   */
  request<T = unknown>(operation: string, params?: Record<string, unknown>): Promise<T>;
}

/** How a script's runtime is started: `Deno.Command`'s options, as plain data. */
export interface ScriptSpawnOptions {
  args: string[];
  cwd: string;
  env: Record<string, string>;
  clearEnv: boolean;
  stdin: "inherit" | "null";
  stdout: "inherit" | "piped";
  stderr: "inherit" | "piped";
  detached: boolean;
}

/** A started runtime, as the runner reads it: the part of `Deno.ChildProcess` it uses. */
export interface ScriptProcess {
  readonly pid: number;
  readonly status: Promise<Deno.CommandStatus>;
  /** Its stdout, when piped. */
  readonly stdout: ReadableStream<Uint8Array>;
  /** Its stderr, when piped. */
  readonly stderr: ReadableStream<Uint8Array>;
}

/**
 * A process other than this one that starts a run's runtime as its own
 * child ({@link RunnerHost.spawner}).
 */
export interface ScriptSpawner {
  /** That process's pid: the `mcpx` process the script sees as its starter (`MCPX_PID`). */
  readonly pid: number;
  /**
   * Starts `path` with `options`.
   *
   * @throws {Error} When it could not be started (the message says why), or the starter is gone.
   */
  spawn(path: string, options: ScriptSpawnOptions): Promise<ScriptProcess>;
  /**
   * Calls `listener` with each signal the starter was sent while a runtime
   * runs (what `mcpx` passes on to the script, runner/forward_signals.ts);
   * returns the function that stops listening.
   */
  onSignal(listener: (signal: Deno.Signal) => void): () => void;
}

/**
 * The options of `mcpx run` and `mcpx exec` that shape a run, keyed by their
 * flag names (problems name the flag: `--env-file: …`). The command line
 * declares them in ops/script_ops.ts; cli/run/script_flags.ts maps that input here (read by runner/run_script.ts).
 */
export interface ScriptFlags {
  export?: string;
  env?: string[];
  "env-file"?: string[];
  launcher?: string;
  "no-launcher"?: boolean;
  prefix?: string[];
  suffix?: string[];
  before?: string[];
  "on-success"?: string[];
  "on-error"?: string[];
  "no-capture-console"?: boolean;
  /** A duration (`5m`), checked by config/timeout_flag.ts. */
  timeout?: string;
  /** Exec hooks: shell commands run around the script (runner/exec_hooks.ts). */
  "hook-pre"?: string[];
  "hook-post"?: string[];
  "hook-on-error"?: string[];
  "hook-on-success"?: string[];
}
