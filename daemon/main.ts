/**
 * The daemon process: `deno run -A daemon/main.ts --config <path> --fingerprint <fp> --mode auto|foreground`.
 *
 * Started detached by the CLI on demand (`auto`: exits after the idle
 * timeout), or in the foreground by `mcpx daemon` (stays up). One daemon per
 * configuration fingerprint; a second one for the same fingerprint exits at
 * once when the first answers on the socket.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { dirname } from "node:path";
import { loadConfig } from "../config/load.ts";
import { mcpxPaths } from "../config/paths.ts";
import { Daemon, type DaemonMode } from "./daemon.ts";
import { serveDaemon } from "./http.ts";
import { daemonFiles, type DaemonRecord, readDaemonRecords } from "./locate.ts";
import { schemaCachePath } from "./schema_cache.ts";
import {
  closeLog,
  daemonSpan,
  type Level,
  log,
  mirrorToFile,
  mirrorToStderr,
  openDurableLog,
  setLogLevel,
} from "./log.ts";
import { logsDir } from "../logs/writer.ts";
import { serverSecrets } from "../logs/redact.ts";
import { resolveSettings } from "../config/resolve_settings.ts";
import type { LoadedConfig } from "../config/types.ts";
import { describe } from "./instance.ts";
import { requestDaemon } from "../client/daemon_request.ts";

/** Options of one daemon run. */
export interface RunDaemonOptions {
  configPath: string | null;
  /** The fingerprint the starter expects; a mismatch (config edited meanwhile) exits with code 3. */
  fingerprint?: string;
  mode: DaemonMode;
  /** Idle time before an `auto` daemon exits, in ms. */
  idleTimeoutMs: number;
  env: Record<string, string>;
  cwd: string;
  /** Version reported by `health` instead of the real one (setting `plumbing.version`, tests only). */
  versionOverride?: string;
  /**
   * The log's directory, rotation and retention (settings `logging.dir`,
   * `logging.maxFileSize`, in bytes, and `logging.retention`, in ms);
   * resolved from the configuration file and the environment when absent.
   */
  logging?: { dir: string; maxFileSize: number; retentionMs: number };
}

/**
 * Runs a daemon until it is stopped (the `stop` operation, SIGTERM, SIGINT)
 * or, in `auto` mode, idle for `idleTimeoutMs`.
 *
 * @returns The process exit code: 0 stopped, 3 fingerprint mismatch, 4
 *   another daemon already serves this configuration.
 */
export async function runDaemon(options: RunDaemonOptions): Promise<number> {
  const paths = mcpxPaths(options.env);
  const config = await loadConfig({
    cwd: options.cwd,
    env: options.env,
    path: options.configPath ?? undefined,
  });
  if (options.fingerprint && options.fingerprint !== config.fingerprint) {
    log(
      "error",
      "daemon.fail",
      "the configuration changed while the daemon was starting (expected {expected}, found {found})",
      { expected: options.fingerprint, found: config.fingerprint },
    );
    return 3;
  }
  const files = daemonFiles(paths.stateDir, config.fingerprint);
  if (await answers(files.socket)) {
    log(
      "info",
      "daemon.duplicate",
      "another daemon already serves this configuration on {socket}",
      {
        socket: files.socket,
      },
    );
    return 4;
  }
  const logging = options.logging ?? loggingSettings(config, options, paths.stateDir);
  openDurableLog({
    dir: logging.dir,
    source: `daemon-${config.fingerprint.slice(0, 8)}-${Deno.pid}`,
    maxFileSize: logging.maxFileSize,
    retentionMs: logging.retentionMs,
    secrets: serverSecrets(config.servers),
  });
  try {
    await Deno.remove(files.socket);
  } catch { /* no stale socket */ }

  const daemon = new Daemon({
    config,
    cachePath: schemaCachePath(paths.cacheDir, config.fingerprint),
    mode: options.mode,
    env: options.env,
    version: options.versionOverride || undefined,
  });
  let stopping: Promise<void> | undefined;
  const { promise: done, resolve: finish } = Promise.withResolvers<void>();
  const stop = (why: string) => {
    stopping ??= (async () => {
      clearInterval(timer);
      await daemon.shutdown();
      await server.shutdown();
      for (const path of [files.socket, files.record]) {
        try {
          await Deno.remove(path);
        } catch { /* already gone */ }
      }
      log("info", "daemon.stop", "daemon {pid} stopped: {why}", {
        pid: Deno.pid,
        why,
        uptimeMs: Date.now() - daemon.startedAt,
      });
      finish();
    })();
    return stopping;
  };
  const server = await serveDaemon(daemon, files.socket, () => stop("stop requested"));
  const record: DaemonRecord = {
    fingerprint: config.fingerprint,
    pid: Deno.pid,
    socket: files.socket,
    configPath: config.path,
    ...(config.contentHash ? { contentHash: config.contentHash } : {}),
    version: daemon.version,
    mode: options.mode,
    startedAt: new Date(daemon.startedAt).toISOString(),
  };
  await Deno.mkdir(dirname(files.record), { recursive: true });
  await Deno.writeTextFile(files.record, JSON.stringify(record));
  log("info", "daemon.start", "daemon {pid} started for {config}", {
    pid: record.pid,
    version: record.version,
    mode: record.mode,
    fingerprint: record.fingerprint,
    config: record.configPath ?? "(none)",
    socket: record.socket,
  }, { span: daemonSpan() });
  await stopOutdated(paths.stateDir, record);
  daemon.warm(); // not awaited: the socket answers while `min` instances start

  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    Deno.addSignalListener(signal, () => stop(signal));
  }
  const period = Math.max(250, Math.min(30_000, daemon.shortestIdleMs / 2));
  const timer = setInterval(async () => {
    try {
      await daemon.reap();
    } catch (error) {
      log("error", "daemon.error", "stopping idle servers failed: {error}", {
        error: describe(error),
      });
    }
    if (
      options.mode === "auto" && daemon.inFlight === 0 &&
      Date.now() - daemon.lastActivityAt >= options.idleTimeoutMs
    ) stop("idle");
  }, Math.min(period, Math.max(250, options.idleTimeoutMs / 2)));

  // Nobody can reach a daemon whose socket was removed (a deleted state
  // directory): leaving it up would only keep its servers running.
  const watch = setInterval(() => {
    if (!exists(files.socket)) stop("socket removed");
    if (daemon.retiring && daemon.inFlight === 0) stop("a daemon for the edited config took over");
  }, SOCKET_CHECK_MS);
  await done;
  clearInterval(watch);
  closeLog();
  return 0;
}

/** `logging.dir`, `logging.maxFileSize` and `logging.retention` from the configuration file and the environment. */
function loggingSettings(
  config: LoadedConfig,
  options: RunDaemonOptions,
  stateDir: string,
): { dir: string; maxFileSize: number; retentionMs: number } {
  const layers = config.path ? [{ file: config.path, document: config.document }] : [];
  try {
    const settings = resolveSettings({ layers, env: options.env, cwd: options.cwd });
    return {
      dir: logsDir(stateDir, String(settings.values["logging.dir"].value)),
      maxFileSize: settings.values["logging.maxFileSize"].value as number,
      retentionMs: settings.values["logging.retention"].value as number,
    };
  } catch {
    return { dir: logsDir(stateDir), maxFileSize: 10 * 1024 * 1024, retentionMs: 14 * 86_400_000 };
  }
}

/** How often the daemon checks that its socket still exists, in ms. */
const SOCKET_CHECK_MS = 2000;

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Retires daemons serving an older version of the same configuration file:
 * an edited file gets a new daemon, and the old one would otherwise keep its
 * servers (and any state files they write) alive until its idle timeout. A
 * retired daemon stops once its calls in flight have finished.
 * Daemons for the same bytes under other variable values are left alone.
 */
async function stopOutdated(stateDir: string, self: DaemonRecord): Promise<void> {
  if (!self.configPath || !self.contentHash) return;
  for (const other of readDaemonRecords(stateDir)) {
    if (
      other.fingerprint === self.fingerprint || other.configPath !== self.configPath ||
      !other.contentHash || other.contentHash === self.contentHash
    ) continue;
    try {
      // Retire, not stop: calls it is serving finish first (it checks every 2 s).
      await requestDaemon(other.socket, "retire", {}, { timeoutMs: 2000 });
      log(
        "info",
        "daemon.replace",
        "retired daemon {pid}, which served an older version of {config}",
        {
          pid: other.pid,
          config: self.configPath,
        },
      );
    } catch { /* already gone */ }
  }
}

async function answers(socket: string): Promise<boolean> {
  try {
    await requestDaemon(socket, "health", {}, { timeoutMs: 1000 });
    return true;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      config: { type: "string" },
      fingerprint: { type: "string" },
      mode: { type: "string", default: "foreground" },
      "idle-timeout": { type: "string", default: String(4 * 3600_000) },
      log: { type: "string" },
      "log-level": { type: "string", default: "info" },
      "version-override": { type: "string" },
    },
  });
  if (values.log) mirrorToFile(values.log);
  else mirrorToStderr();
  setLogLevel(values["log-level"] as Level);
  // A stray rejection inside a transport must not take every server down with it.
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    log("error", "daemon.error", "unhandled rejection: {error}", { error: describe(event.reason) });
  });
  let code = 1;
  try {
    code = await runDaemon({
      configPath: values.config || null,
      fingerprint: values.fingerprint,
      mode: values.mode === "auto" ? "auto" : "foreground",
      idleTimeoutMs: Number(values["idle-timeout"]),
      env: Deno.env.toObject(),
      cwd: Deno.cwd(),
      versionOverride: values["version-override"],
    });
  } catch (error) {
    log("error", "daemon.fail", "daemon failed: {error}", { error: describe(error) });
    console.error(`mcpx daemon: ${error instanceof Error ? error.message : String(error)}`);
  }
  Deno.exit(code);
}
