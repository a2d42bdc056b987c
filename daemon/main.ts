/**
 * The daemon process: `deno run -A daemon/main.ts --config <path> --fingerprint <fp> --mode auto|foreground [--trust-check]`.
 *
 * Started detached by the CLI on demand (`auto`: exits after the idle
 * timeout, `--settings` carries the values the CLI resolved), or in the
 * foreground by `mcpx daemon` (stays up). One daemon per configuration
 * fingerprint; a second one for the same fingerprint exits at once (code 1)
 * when the first answers on the socket. Exit codes are core/errors.ts `EXIT`'s.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { dirname, join } from "node:path";
import { loadConfig } from "../config/load.ts";
import { mcpxPaths } from "../config/paths.ts";
import type { DaemonMode } from "../engine/engine.ts";
import { serveDaemon } from "./http.ts";
import { glibcTrim, HeapTrimmer } from "./heap_trim.ts";
import {
  daemonFiles,
  type DaemonRecord,
  processEnv,
  readDaemonRecords,
  SOCKET_DIR_WHAT,
} from "../wire/locate.ts";
import { ensurePrivateDir, writePrivateFile } from "../core/private_fs.ts";
import {
  closeLog,
  daemonSpan,
  type Level,
  log,
  mirrorToFile,
  mirrorToStderr,
  openDurableLog,
  setLogLevel,
  setLogRedactor,
  setServerRecordLimits,
} from "../engine/log.ts";
import { logsDir } from "../logs/writer.ts";
import { openQuestionDesk, questionsPath } from "../engine/questions_open.ts";
import { questionDesk } from "../engine/questions.ts";
import { Redactor } from "../core/redact.ts";
import { existsSync } from "../core/exists.ts";
import { configRedactor } from "../config/secrets.ts";
import { daemonConfiguration, daemonFor } from "./daemon_configuration.ts";
import { describe } from "../engine/instance.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { openGroupLedger, sweepOrphanGroups } from "../engine/process_groups.ts";
import {
  parseSettingValues,
  resolveDaemonSettings,
  type SettingValues,
} from "../engine/daemon_settings.ts";
import { EXIT, exitCodeOf, McpxError, StorageError } from "../core/errors.ts";
import { terminalText } from "../core/terminal_text.ts";
import { PRUNE_DELAY_MS, PRUNE_PERIOD_MS } from "../engine/cache_prune.ts";
import { pruneCache } from "./prune_cache.ts";
import { listenTcp, tcpListenOptions } from "./http_tcp.ts";
import type { GuardedServer } from "../wire/guarded_listen.ts";
import { bodyLimit } from "../wire/body_limit.ts";
import { setFifoRoot } from "../engine/fifo_pipes.ts";
import { UpgradeGate } from "./upgrade_gate.ts";
import { type AdoptedLine, nextSocket, upgradeDaemon } from "./upgrade.ts";
import type { HandoffRecord } from "../engine/handoff.ts";

/** Options of one daemon run. */
export interface RunDaemonOptions {
  configPath: string | null;
  /**
   * The fingerprint the starter expects; a mismatch (the configuration was
   * edited meanwhile) is refused with `config-changed`.
   */
  fingerprint?: string;
  /** A daemon process is started on demand or deliberately (inline is daemon/inline.ts's). */
  mode: Exclude<DaemonMode, "inline">;
  env: Record<string, string>;
  cwd: string;
  /**
   * Every setting's value as the starter resolved it (engine/daemon_settings.ts);
   * resolved here from the files and the environment when absent. Read:
   * `daemon.idleTimeout` (an `auto` daemon's idle exit, ms), `logging.level`,
   * `logging.dir`, `logging.maxFileSize` (bytes), `logging.retention` (ms),
   * `logging.maxDirSize` (bytes), `logging.serverRate`, `logging.serverRecordBytes`,
   * `plumbing.version`.
   */
  settings?: SettingValues;
  /**
   * Start no server the configuration file has not trusted with what it runs
   * (config/trust.ts): set by a starter that found the file as a project's
   * (`--trust-check`). Absent: the file was named or is the user's own.
   */
  trustCheck?: boolean;
  /**
   * The handoff record of the daemon this one replaces (`mcpx daemon upgrade`,
   * daemon/upgrade.ts): its servers are adopted, the socket is
   * `<socket>.next` until the old daemon renames it, and one JSON line
   * (`AdoptedLine`) on stdout says it serves.
   */
  adopt?: string;
}

/**
 * Runs a daemon until it is stopped (the `stop` operation, SIGTERM, SIGINT,
 * SIGHUP, its socket removed) or, in `auto` mode, idle for `daemon.idleTimeout`.
 *
 * @returns 0 once it has stopped.
 * @throws {McpxError} `daemon-running` when another daemon already serves
 *   this configuration; `unsafe-directory` (core/private_fs.ts)
 *   when the state directory, `daemons/`, the socket's directory or the
 *   cache directory is not the user's alone; `config-changed` when the configuration's fingerprint
 *   is not the one the starter expected; {ConfigError} for an invalid setting.
 */
export async function runDaemon(options: RunDaemonOptions): Promise<number> {
  const paths = mcpxPaths(options.env);
  let config = await loadConfig({
    cwd: options.cwd,
    env: options.env,
    path: options.configPath ?? undefined,
  });
  // Before anything is logged or written about the configuration (decision 0017).
  redactor = configRedactor(config, options.env);
  setLogRedactor(redactor);
  const settings = options.settings ??
    await resolveDaemonSettings({
      configPath: config.path,
      cwd: options.cwd,
      env: options.env,
      trustCheck: options.trustCheck,
    });
  setLogLevel(settings["logging.level"] as Level);
  // The namespaces declarations derive, as the CLI that started it adds them (decision 0052),
  // and their secrets in the redactor.
  ({ config, redactor } = await daemonConfiguration(config, settings, options.env));
  setLogRedactor(redactor);
  if (options.fingerprint && options.fingerprint !== config.fingerprint) {
    throw new McpxError(
      "config-changed",
      `the configuration ${config.path ?? "(none)"} changed while its daemon was starting ` +
        `(expected fingerprint ${options.fingerprint}, found ${config.fingerprint}); ` +
        `run the command again to start a daemon for the file as it is now`,
    );
  }
  // A port beyond loopback without a token is refused before anything starts (decision 0046).
  const tcpAsk = tcpListenOptions(settings, options.mode);
  const files = daemonFiles(paths.stateDir, config.fingerprint, processEnv);
  // Every directory it keeps state or its socket in is the user's alone, or it does not start.
  // One a full disk keeps it from making costs only what it would hold: the record is
  // written once the disk allows (writeRecord), a schema cache write is logged.
  ensurePrivateDirUnlessFull(dirname(files.record), RECORDS_WHAT, { from: paths.stateDir });
  ensurePrivateDir(dirname(files.socket), SOCKET_DIR_WHAT, { from: paths.stateDir });
  ensurePrivateDirUnlessFull(paths.cacheDir, "mcpx's cache");
  const other = options.adopt ? undefined : await answers(files.socket);
  if (other) {
    throw new McpxError(
      "daemon-running",
      `another daemon (pid ${other.pid}) already serves ${config.path ?? "(no config)"} on ` +
        `${files.socket}; \`mcpx daemons\` lists it and \`mcpx stop\` stops it`,
    );
  }
  openDurableLog({
    dir: logsDir(paths.stateDir, String(settings["logging.dir"] ?? "")),
    source: `daemon-${config.fingerprint.slice(0, 8)}-${Deno.pid}`,
    maxFileSize: settings["logging.maxFileSize"] as number,
    retentionMs: settings["logging.retention"] as number,
    maxDirSize: settings["logging.maxDirSize"] as number,
    redactor,
  });
  setServerRecordLimits({
    rate: settings["logging.serverRate"] as number,
    maxBytes: settings["logging.serverRecordBytes"] as number,
  });
  // Servers a killed predecessor left running go before any of ours start (decision 0006).
  for (const group of await sweepOrphanGroups([files.groups])) {
    log("warn", "server.orphan", "ended {command} (process group {pgid}), left by daemon {owner}", {
      ...group,
    });
  }
  openGroupLedger(files.groups, { redact: (text) => redactor.text(text) });
  setFifoRoot(join(dirname(files.groups), `${config.fingerprint}.fifos`));
  // Questions servers ask are stored beside the log index (decision 0040).
  openQuestionDesk(
    questionsPath(logsDir(paths.stateDir, String(settings["logging.dir"] ?? ""))),
    config.fingerprint,
    settings,
  );
  // The daemon listens on a path of its own, renamed over the socket once it listens (atomic:
  // a caller finds the old socket or the new, never none). Deno removes the path it bound when
  // its server shuts down: so that is never the socket, which by then may be a successor's
  // (`mcpx daemon upgrade`). An adopting daemon's predecessor renames its path (daemon/upgrade.ts).
  const socketPath = options.adopt ? nextSocket(files.socket) : `${files.socket}.${Deno.pid}`;
  try {
    await Deno.remove(socketPath);
  } catch { /* no stale socket */ }

  const idleTimeoutMs = options.mode === "auto" ? settings["daemon.idleTimeout"] as number : 0;
  const daemon = await daemonFor(config, settings, {
    mode: options.mode,
    env: options.env,
    redactor,
    trustCheck: options.trustCheck,
    stateDir: paths.stateDir,
    cacheDir: paths.cacheDir,
  });
  // Declared before anything can call stop(): a `stop` request may arrive as
  // soon as the socket listens, while outdated daemons are still being retired.
  let timer: ReturnType<typeof setInterval> | undefined;
  let watch: ReturnType<typeof setInterval> | undefined;
  let prune: ReturnType<typeof setTimeout> | undefined;
  // Not const: a `stop` request can arrive before serveDaemon() has returned.
  // deno-lint-ignore prefer-const
  let server: Deno.HttpServer<Deno.UnixAddr> | undefined;
  let tcp: GuardedServer | undefined;
  let socketId: number | null = null;
  let stopping: Promise<void> | undefined;
  const gate = new UpgradeGate();
  const { promise: done, resolve: finish } = Promise.withResolvers<void>();
  const step = async (what: string, work: () => unknown) => {
    try {
      await work();
    } catch (error) {
      log("error", "daemon.error", "{what} failed while stopping: {error}", {
        what,
        error: describe(error),
      });
    }
  };
  // Every step runs whatever an earlier one threw, so a stop always ends the daemon.
  const stop = (why: string): Promise<void> =>
    stopping ??= (async () => {
      daemon.stopping = true;
      clearInterval(timer);
      clearInterval(watch);
      clearTimeout(prune);
      await step("stopping the servers", () => daemon.shutdown());
      // Waits for the answers in flight (forwarded ones too, after an upgrade) and closes idle
      // connections; Deno then removes the path it bound, which was renamed away (below).
      await step("closing the socket", () => server?.shutdown());
      await step("closing the TCP listener", () => tcp?.shutdown());
      await step("removing the socket", () => removeIfOurs(files.socket, socketId));
      await step("removing the record", () => removeRecordIfOurs(files.record));
      log("info", "daemon.stop", "daemon {pid} stopped: {why}", {
        pid: Deno.pid,
        why,
        uptimeMs: Date.now() - daemon.startedAt,
      });
      finish();
    })();
  const adopted = options.adopt ? await daemon.adopt(readHandoff(options.adopt)) : undefined;
  server = await serveDaemon(daemon, socketPath, () => stop("stop requested"), {
    maxBodyBytes: bodyLimit(Number(settings["input.maxBytes"])),
    gate,
  });
  socketId = inode(socketPath);
  if (!options.adopt) Deno.renameSync(socketPath, files.socket);
  daemon.upgrade = () =>
    upgradeDaemon({
      daemon,
      gate,
      files,
      run: {
        configPath: config.path,
        fingerprint: config.fingerprint,
        mode: options.mode,
        settings,
        trustCheck: options.trustCheck,
        env: options.env,
      },
      retire: (why) => void stop(why),
    });
  try {
    tcp = tcpAsk && listenTcp(daemon, tcpAsk, () => stop("stop requested"));
  } catch (error) {
    await stop("could not listen on TCP");
    throw error;
  }
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
  // A full disk must not keep the daemon from serving: without its record it is
  // still found by its socket, and the record is written once the disk allows.
  let recorded = await writeRecord(files.record, record, { stateDir: paths.stateDir });
  log("info", "daemon.start", "daemon {pid} started for {config}", {
    pid: record.pid,
    version: record.version,
    mode: record.mode,
    fingerprint: record.fingerprint,
    config: record.configPath ?? "(none)",
    socket: record.socket,
    ...(tcp ? { http: `${tcpAsk!.hostname}:${tcp.addr.port}` } : {}),
    trustCheck: daemon.trustCheck,
  }, { span: daemonSpan() });
  if (adopted) {
    const line: AdoptedLine = { pid: Deno.pid, version: daemon.version, ...adopted };
    Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(line) + "\n"));
    for (const failed of adopted.failed) {
      log("warn", "server.orphan", "could not adopt {server} (pid {pid}): {error}", { ...failed });
    }
  }
  const replaced = adopted ? [] : await stopOutdated(paths.stateDir, record);
  if (replaced.length) {
    daemon.configChanged({ change: "replaced", replaced: replaced.map((r) => r.pid) });
  }

  const onSignal = (["SIGTERM", "SIGINT", "SIGHUP"] as const).map((signal) =>
    [signal, () => void stop(signal)] as const
  );
  // A stop that came during the start (a `stop` request) leaves nothing to arm.
  if (!stopping) {
    daemon.warm(); // not awaited: the socket answers while `min` instances start
    for (const [signal, handler] of onSignal) Deno.addSignalListener(signal, handler);
    const period = Math.max(250, Math.min(30_000, daemon.shortestIdleMs / 2));
    // Freed C heap back to the system once quiet (decision 0057).
    const trim = glibcTrim();
    const trimmer = trim && new HeapTrimmer(trim);
    // The cache, once the daemon answers and hourly after (engine/cache_prune.ts).
    let prunedAt = Date.now();
    prune = setTimeout(
      () => pruneCache(paths, config.fingerprint, settings["cache.maxAge"] as number),
      PRUNE_DELAY_MS,
    );
    timer = setInterval(async () => {
      if (Date.now() - prunedAt >= PRUNE_PERIOD_MS) {
        prunedAt = Date.now();
        pruneCache(paths, config.fingerprint, settings["cache.maxAge"] as number);
      }
      try {
        await daemon.reap();
      } catch (error) {
        log("error", "daemon.error", "stopping idle servers failed: {error}", {
          error: describe(error),
        });
      }
      if (
        options.mode === "auto" && daemon.inFlight === 0 && !questionDesk.busy &&
        Date.now() - daemon.lastActivityAt >= idleTimeoutMs
      ) stop("idle");
    }, Math.min(period, Math.max(250, idleTimeoutMs / 2)));

    // Nobody can reach a daemon whose socket was removed (a deleted state
    // directory): leaving it up would only keep its servers running.
    watch = setInterval(async () => {
      if (!existsSync(files.socket)) stop("socket removed");
      if (!recorded && !stopping) {
        recorded = await writeRecord(files.record, record, {
          stateDir: paths.stateDir,
          report: false,
        });
      }
      if (daemon.retiring && daemon.inFlight === 0) {
        stop("a daemon for the edited config took over");
      }
      trimmer?.tick(daemon.lastActivityAt, daemon.inFlight);
    }, SOCKET_CHECK_MS);
  }
  await done;
  for (const [signal, handler] of onSignal) {
    try {
      Deno.removeSignalListener(signal, handler);
    } catch { /* never added */ }
  }
  closeLog();
  return 0;
}

/** What the daemon records' directory holds, in the words of a refusal (core/private_fs.ts). */
const RECORDS_WHAT = "mcpx's daemon records";

/**
 * {@link ensurePrivateDir}, except that a directory the file system refuses
 * to make (a {@link StorageError}: a full disk) is left for later; a directory
 * that is not the user's alone still stops the daemon.
 */
function ensurePrivateDirUnlessFull(
  path: string,
  what: string,
  options: { from?: string } = {},
): void {
  try {
    ensurePrivateDir(path, what, options);
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    log("error", "daemon.error", "cannot make {path} yet: {error}", {
      path,
      error: describe(error),
    });
  }
}

/**
 * Writes the daemon's record (`mcpx daemons` lists it) atomically and
 * privately (core/private_fs.ts), in a directory held to the private rule
 * from `options.stateDir` down.
 *
 * @param options `report`: log a failure (the first attempt; retries stay quiet).
 * @returns False when it could not be written (a full disk, a directory not
 *   the user's alone), which is logged.
 */
async function writeRecord(
  path: string,
  record: DaemonRecord,
  options: { stateDir: string; report?: boolean },
): Promise<boolean> {
  const report = options.report ?? true;
  try {
    ensurePrivateDir(dirname(path), RECORDS_WHAT, { from: options.stateDir });
    await writePrivateFile(path, JSON.stringify(record));
    return true;
  } catch (error) {
    if (report) {
      log("error", "daemon.error", "writing the daemon's record {path} failed: {error}", {
        path,
        error: describe(error),
      });
    }
    return false;
  }
}
/** The configuration's redactor once it is loaded (core/redact.ts): what this process prints. */
let redactor = new Redactor();

/** The inode of `path`, or null when it cannot be read. */
function inode(path: string): number | null {
  try {
    return Deno.statSync(path).ino;
  } catch {
    return null;
  }
}

/**
 * Removes the socket only while it is still the one this daemon bound: a
 * daemon that started after this one began to stop owns the path by now.
 */
function removeIfOurs(path: string, ours: number | null): void {
  const now = inode(path);
  if (now !== null && (ours === null || now === ours)) Deno.removeSync(path);
}

/** Removes the daemon record only while it still names this process. */
function removeRecordIfOurs(path: string): void {
  try {
    if (JSON.parse(Deno.readTextFileSync(path)).pid !== Deno.pid) return;
  } catch {
    return; // gone, or being rewritten by the next daemon
  }
  Deno.removeSync(path);
}

/** How often the daemon checks that its socket still exists, in ms. */
const SOCKET_CHECK_MS = 2000;

/**
 * Retires daemons serving an older version of the same configuration file:
 * an edited file gets a new daemon, and the old one would otherwise keep its
 * servers (and any state files they write) alive until its idle timeout. A
 * retired daemon stops once its calls in flight have finished.
 * Daemons for the same bytes under other variable values are left alone.
 *
 * @returns The records of the daemons retired.
 */
async function stopOutdated(stateDir: string, self: DaemonRecord): Promise<DaemonRecord[]> {
  const retired: DaemonRecord[] = [];
  if (!self.configPath || !self.contentHash) return retired;
  for (const other of readDaemonRecords(stateDir)) {
    if (
      other.fingerprint === self.fingerprint || other.configPath !== self.configPath ||
      !other.contentHash || other.contentHash === self.contentHash
    ) continue;
    try {
      // Retire, not stop: calls it is serving finish first (it checks every 2 s).
      await requestDaemon(other.socket, "retire", {}, { timeoutMs: 2000 });
      retired.push(other);
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
  return retired;
}

/**
 * Reads a handoff record (engine/handoff.ts).
 *
 * @throws {McpxError} `upgrade-failed` naming the file when it cannot be read.
 */
function readHandoff(path: string): HandoffRecord {
  try {
    const record = JSON.parse(Deno.readTextFileSync(path)) as HandoffRecord;
    if (record.format !== 1) throw new Error(`format ${record.format}, not 1`);
    return record;
  } catch (error) {
    throw new McpxError(
      "upgrade-failed",
      `cannot read the handoff record ${path}: ${(error as Error).message}`,
    );
  }
}

/** The daemon answering on `socket` and not stopping, or undefined. */
async function answers(socket: string): Promise<{ pid: number } | undefined> {
  try {
    const health = await requestDaemon<{ pid: number; stopping?: boolean }>(
      socket,
      "health",
      {},
      { timeoutMs: 1000 },
    );
    return health.stopping ? undefined : health;
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  // A stray rejection inside a transport must not take every server down with it.
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    log("error", "daemon.error", "unhandled rejection: {error}", { error: describe(event.reason) });
  });
  let code: number = EXIT.failure;
  try {
    const { values } = parseArgs({
      args: Deno.args,
      options: {
        config: { type: "string" },
        fingerprint: { type: "string" },
        mode: { type: "string", default: "foreground" },
        log: { type: "string" },
        settings: { type: "string" },
        "trust-check": { type: "boolean" },
        adopt: { type: "string" },
      },
    });
    if (values.log) mirrorToFile(values.log);
    else mirrorToStderr();
    code = await runDaemon({
      configPath: values.config || null,
      fingerprint: values.fingerprint,
      mode: values.mode === "auto" ? "auto" : "foreground",
      env: Deno.env.toObject(),
      cwd: Deno.cwd(),
      ...(values.settings ? { settings: parseSettingValues(values.settings) } : {}),
      trustCheck: values["trust-check"] === true,
      ...(values.adopt ? { adopt: values.adopt } : {}),
    });
  } catch (error) {
    // The codes of the table (core/errors.ts EXIT): 2 for a bad command line, else 1.
    code = exitCodeOf(error);
    log("error", "daemon.fail", "daemon failed: {error}", { error: describe(error) });
    console.error(
      terminalText(
        `mcpx daemon: ${redactor.text(error instanceof Error ? error.message : String(error))}`,
      ),
    );
  }
  Deno.exit(code);
}
