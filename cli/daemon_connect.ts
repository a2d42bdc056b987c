/**
 * Finding the daemon for a configuration, starting it when absent.
 *
 * Race-safe: a CLI that finds no daemon takes an exclusive lock on the
 * daemon's lock file, looks again, and only then starts one, so two CLIs
 * started at the same moment end with one daemon. A daemon of another
 * version is stopped and replaced, never talked to. Spec 000, "One daemon
 * per config".
 *
 * @module
 */

import type { DroppedRecords } from "../logs/writer.ts";
import { dirname } from "../core/posix_path.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { daemonFiles } from "../wire/locate.ts";
import { pollUntil } from "../core/deadline.ts";
import { DaemonUnavailableError } from "../core/errors.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE, UnsafeDirectoryError } from "../core/private_fs.ts";
import type { SettingValue } from "../config/settings.ts";
import { VERSION } from "../core/version.ts";
import { DAEMON_MODULE, DAEMON_RUN_FLAGS, withoutSecrets } from "../engine/daemon_process.ts";

/** What the `health` operation answers. */
export interface DaemonHealth {
  version: string;
  pid: number;
  fingerprint: string;
  configPath: string | null;
  mode: "auto" | "foreground";
  startedAt: string;
  /** True once it has begun to stop: it runs nothing more, so it is not used. */
  stopping?: boolean;
  /** True when it starts a server only once its project configuration is trusted (decision 0018). */
  trustCheck?: boolean;
  /**
   * Records the daemon could not write to its durable log (a full disk):
   * how many, since when, why and where (logs/writer.ts `DroppedRecords`).
   */
  logDropped?: DroppedRecords & { dir: string };
}

/** Where to find or how to start the daemon. */
export interface ConnectOptions {
  stateDir: string;
  /** The cache directory the daemon must use (the same one the CLI reads the schema cache from). */
  cacheDir: string;
  fingerprint: string;
  configPath: string | null;
  /** How long to wait for a started daemon to answer, in ms. */
  startWaitMs: number;
  /**
   * Every setting's resolved value (every layer, the environment and the
   * flags), keyed by dotted name: a started daemon applies exactly these, as
   * `mcpx daemon` applies its own (daemon/main.ts `--settings`).
   */
  settings: Record<string, SettingValue>;
  env: Record<string, string>;
  /**
   * Whether the daemon must refuse to start a server its project configuration
   * has not trusted (cli/context.ts `trustChecked()`): a running daemon that
   * checks otherwise is replaced.
   */
  trustCheck?: boolean;
}

/** A daemon that answers, as {@link connectDaemon} found or started it. */
export interface ConnectedDaemon {
  socket: string;
  pid: number;
}

/**
 * Asks the daemon on `socket` who it is; undefined when nothing answers.
 *
 * @throws {UnsafeDirectoryError} when the socket's directory is not the
 *   user's alone: neither talking there nor starting a daemon there is safe.
 */
export async function probeDaemon(socket: string): Promise<DaemonHealth | undefined> {
  try {
    return await requestDaemon<DaemonHealth>(socket, "health", {}, { timeoutMs: 2000 });
  } catch (error) {
    if (error instanceof UnsafeDirectoryError) throw error;
    return undefined;
  }
}

/**
 * Returns the socket and pid of a running daemon of this CLI's version for
 * the configuration, starting (or replacing) one when needed. A daemon that
 * is stopping is waited out, then replaced.
 *
 * @throws {DaemonUnavailableError} naming the socket, the daemon log and
 *   its last lines when a started daemon does not answer within `startWaitMs`.
 * @throws {UnsafeDirectoryError} when the state directory, its `daemons/` or
 *   the socket's directory is not the user's alone (core/private_fs.ts).
 */
export async function connectDaemon(options: ConnectOptions): Promise<ConnectedDaemon> {
  const files = daemonFiles(options.stateDir, options.fingerprint, (name) => options.env[name]);
  const usable = (h: DaemonHealth | undefined) =>
    h?.version === VERSION && !h.stopping && (h.trustCheck ?? false) === !!options.trustCheck;
  const current = await probeDaemon(files.socket);
  if (usable(current)) return { socket: files.socket, pid: current!.pid };
  ensurePrivateDir(dirname(files.lock), "mcpx's daemon records", { from: options.stateDir });
  using lock = await Deno.open(files.lock, {
    create: true,
    write: true,
    mode: PRIVATE_FILE_MODE,
  });
  await lock.lock(true);
  try {
    const again = await probeDaemon(files.socket);
    if (usable(again)) return { socket: files.socket, pid: again!.pid };
    if (again?.stopping) await goneWithin(files.socket, 10_000);
    else if (again) await replace(files.socket, again);
    start(options, files.log);
    const health = await pollUntil(
      async () => {
        const h = await probeDaemon(files.socket);
        return usable(h) ? h : undefined;
      },
      options.startWaitMs,
      15,
    );
    if (!health) {
      const tail = readTail(files.log);
      throw new DaemonUnavailableError(
        `the daemon did not answer on ${files.socket} within ${options.startWaitMs} ms; its log is ${files.log}` +
          (tail ? `:\n${tail}` : "") +
          `\nTry \`mcpx daemon\` in the foreground to see why.`,
      );
    }
    return { socket: files.socket, pid: health.pid };
  } finally {
    await lock.unlock();
  }
}

/** Waits until nothing answers on `socket`, for at most `ms`; true when it went. */
async function goneWithin(socket: string, ms: number): Promise<boolean> {
  return await pollUntil(async () => (await probeDaemon(socket)) ? undefined : true, ms) ?? false;
}

async function replace(socket: string, old: DaemonHealth): Promise<void> {
  try {
    await requestDaemon(socket, "stop", {}, { timeoutMs: 5000 });
  } catch { /* it may already be going */ }
  if (!(await goneWithin(socket, 10_000))) {
    try {
      Deno.kill(old.pid, "SIGTERM");
    } catch { /* gone */ }
  }
}

/** The local path of a `file:` URL. */
function fromFileUrl(url: URL): string {
  return decodeURIComponent(url.pathname);
}

export { DAEMON_MODULE, DAEMON_RUN_FLAGS, DAEMON_V8_FLAGS } from "../engine/daemon_process.ts";

function start(options: ConnectOptions, logPath: string): void {
  const main = new URL(`../${DAEMON_MODULE}`, import.meta.url);
  const args = ["run", ...DAEMON_RUN_FLAGS];
  args.push(
    main.protocol === "file:" ? fromFileUrl(main) : main.href,
    "--mode",
    "auto",
    "--config",
    options.configPath ?? "",
    "--fingerprint",
    options.fingerprint,
    "--log",
    logPath,
    "--settings",
    JSON.stringify(withoutSecrets(options.settings)),
    ...(options.trustCheck ? ["--trust-check"] : []),
  );
  try {
    // The daemon must use the directories this CLI resolved (flags included), or
    // it would listen and write its cache where this CLI never looks.
    const env: Record<string, string> = {
      ...options.env,
      MCPX_PATHS_STATE: options.stateDir,
      MCPX_PATHS_CACHE: options.cacheDir,
    };
    delete env.MCPX_STATE_DIR;
    delete env.MCPX_CACHE_DIR;
    const child = new Deno.Command(Deno.execPath(), {
      args,
      env,
      clearEnv: true,
      cwd: "/",
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn();
    child.unref();
  } catch (error) {
    throw new DaemonUnavailableError(`could not start the daemon: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function readTail(path: string): string {
  try {
    return Deno.readTextFileSync(path).trim().split("\n").slice(-5).join("\n");
  } catch {
    return "";
  }
}
