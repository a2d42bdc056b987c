/**
 * `mcpx daemon upgrade`, on the daemon being replaced (decision 0084): hands
 * every stdio server to a daemon of the installed version without stopping
 * one, while callers wait rather than fail or start a daemon of their own.
 *
 * 1. Take the configuration's start lock (the one cli/daemon_connect.ts takes
 *    before starting a daemon), so no caller starts one meanwhile, and hold
 *    new requests (daemon/upgrade_gate.ts).
 * 2. Wait for the requests in flight to finish (at most {@link QUIESCE_MS}).
 * 3. Let go of every server (engine/handoff.ts `handOver`), write the
 *    handoff record (0600), start the new daemon with `--adopt <record>`.
 * 4. The new daemon adopts the servers, listens on `<socket>.next`, and
 *    prints one JSON line (`AdoptedLine`) on its stdout. This daemon renames
 *    `<socket>.next` over the socket (atomic: a caller connects to one or the
 *    other, never to nothing), forwards every request to the new daemon, and
 *    stops once the forwarded ones have finished, ending no server.
 *
 * If the new daemon fails or does not answer within {@link ADOPT_WAIT_MS}, it
 * is killed and this daemon takes its servers back from the same record: no
 * server was stopped, and the error says why, with the log to read.
 *
 * @module
 */

import { McpxError } from "../core/errors.ts";
import { PRIVATE_FILE_MODE, writePrivateFile } from "../core/private_fs.ts";
import { VERSION } from "../core/version.ts";
import { pollUntil } from "../core/deadline.ts";
import type { Daemon } from "../engine/engine.ts";
import type { AdoptFailure, HandoffRecord } from "../engine/handoff.ts";
import { killGroup } from "../engine/stdio_transport.ts";
import { log } from "../engine/log.ts";
import type { DaemonFiles } from "../wire/locate.ts";
import { DAEMON_RUN_FLAGS, withoutSecrets } from "../engine/daemon_process.ts";
import type { SettingValues } from "../engine/daemon_settings.ts";
import type { UpgradeGate } from "./upgrade_gate.ts";

/** The longest the requests in flight are waited for before the upgrade is given up, in ms. */
export const QUIESCE_MS = 60_000;
/** How long a replaced daemon keeps forwarding before it stops, in ms. */
export const FORWARD_LINGER_MS = 1000;
/** The longest the new daemon gets to adopt the servers and listen, in ms. */
export const ADOPT_WAIT_MS = 30_000;

/** What `mcpx daemon upgrade` answers. */
export interface UpgradeResult {
  oldPid: number;
  newPid: number;
  /** The new daemon's version. */
  version: string;
  /** Servers handed over and adopted, still running as they were. */
  kept: number;
  /** Instances that could not be handed over (remotes) and were stopped. */
  stopped: number;
  /** Servers the new daemon could not adopt (their process groups were ended). */
  failed: AdoptFailure[];
  /** The longest a request waited while the daemon was replaced, in ms. */
  longestWaitMs: number;
  /** Requests that waited. */
  waited: number;
  /** From the request to the new daemon serving, in ms. */
  tookMs: number;
}

/** The line the new daemon prints on its stdout once it serves on `<socket>.next`. */
export interface AdoptedLine {
  pid: number;
  version: string;
  adopted: number;
  failed: AdoptFailure[];
}

/** What {@link upgradeDaemon} needs of the daemon being replaced. */
export interface UpgradeContext {
  daemon: Daemon;
  gate: UpgradeGate;
  files: DaemonFiles;
  run: {
    configPath: string | null;
    fingerprint: string;
    mode: "auto" | "foreground";
    settings: SettingValues;
    trustCheck?: boolean;
    env: Record<string, string>;
  };
  /** Stops this daemon without stopping any server (they were handed over). */
  retire: (why: string) => void;
}

/** The socket a daemon adopting servers listens on until it is renamed over the socket. */
export function nextSocket(socket: string): string {
  return `${socket}.next`;
}

/** The module the new daemon runs: the installed bundle (cli/bundle.ts `DAEMON_BUNDLE`). */
const BUNDLE = new URL("../daemon/daemon.bundle.js", import.meta.url);

let upgrading = false;

/**
 * Replaces this daemon with one of the installed version, its servers kept.
 *
 * @throws {McpxError} `upgrade-busy` when requests are still in flight after
 *   {@link QUIESCE_MS} (nothing changed); `upgrade-failed` when the new daemon
 *   did not take over (this one kept every server and serves on); `daemon-stopping`
 *   when an upgrade is already under way.
 */
export async function upgradeDaemon(ctx: UpgradeContext): Promise<UpgradeResult> {
  if (upgrading) {
    throw new McpxError("daemon-stopping", "this daemon is already being upgraded");
  }
  upgrading = true;
  const began = performance.now();
  const { daemon, gate, files } = ctx;
  using lock = await Deno.open(files.lock, { create: true, write: true, mode: PRIVATE_FILE_MODE });
  await lock.lock(true);
  gate.hold();
  let handedOver = false;
  try {
    // The upgrade request itself is one of those in flight.
    if (!await pollUntil(() => daemon.inFlight <= 1 ? true : undefined, QUIESCE_MS, 5)) {
      throw new McpxError(
        "upgrade-busy",
        `${daemon.inFlight - 1} request(s) were still running after ${QUIESCE_MS} ms; ` +
          `nothing was changed: run \`mcpx daemon upgrade\` again once they have finished`,
      );
    }
    await daemon.sessions.flush();
    const { servers, stopped } = await daemon.handOver();
    handedOver = true;
    const record: HandoffRecord = {
      format: 1,
      from: { pid: Deno.pid, version: VERSION },
      at: new Date().toISOString(),
      servers,
    };
    const recordPath = `${files.record}.handoff`;
    await writePrivateFile(recordPath, JSON.stringify(record));
    let line: AdoptedLine;
    try {
      line = await startSuccessor(ctx, recordPath);
    } catch (error) {
      const back = await daemon.adopt(record);
      handedOver = false;
      throw new McpxError(
        "upgrade-failed",
        `the new daemon did not take over: ${(error as Error).message}; this daemon ` +
          `(pid ${Deno.pid}) kept ${back.adopted} server(s) and serves on` +
          (back.failed.length ? ` (${back.failed.length} could not be taken back)` : "") +
          `; the new daemon's log is ${files.log}`,
        { cause: error },
      );
    } finally {
      try {
        Deno.removeSync(recordPath);
      } catch { /* gone */ }
    }
    Deno.renameSync(nextSocket(files.socket), files.socket);
    gate.forwardTo(files.socket);
    const result: UpgradeResult = {
      oldPid: Deno.pid,
      newPid: line.pid,
      version: line.version,
      kept: line.adopted,
      stopped,
      failed: line.failed,
      longestWaitMs: Math.round(gate.longestWaitMs),
      waited: gate.heldCount,
      tookMs: Math.round(performance.now() - began),
    };
    log("info", "daemon.upgrade", "daemon {oldPid} handed {kept} server(s) to daemon {newPid}", {
      ...result,
      failed: result.failed.length,
    });
    // Clients' parked connections to this daemon are used once more (and closed by the answer,
    // daemon/upgrade_gate.ts) rather than closed under a client that may be writing on one.
    setTimeout(() => ctx.retire(`upgraded: daemon ${line.pid} took over`), FORWARD_LINGER_MS);
    return result;
  } finally {
    if (!handedOver || !gate.engaged) gate.open();
    await lock.unlock();
    upgrading = false;
  }
}

/**
 * Starts the daemon that adopts `recordPath`'s servers and waits for its
 * {@link AdoptedLine}; on failure it is killed (its process group) first.
 */
async function startSuccessor(ctx: UpgradeContext, recordPath: string): Promise<AdoptedLine> {
  const { run, files } = ctx;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...DAEMON_RUN_FLAGS,
      decodeURIComponent(BUNDLE.pathname),
      "--mode",
      run.mode,
      "--config",
      run.configPath ?? "",
      "--fingerprint",
      run.fingerprint,
      "--log",
      files.log,
      "--settings",
      JSON.stringify(withoutSecrets(run.settings)),
      ...(run.trustCheck ? ["--trust-check"] : []),
      "--adopt",
      recordPath,
    ],
    env: run.env,
    clearEnv: true,
    cwd: "/",
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    detached: true,
  }).spawn();
  child.unref();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const first = (async () => {
      let text = "";
      while (!text.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`it exited (${describeStatus(await child.status)})`);
        text += value;
      }
      return JSON.parse(text.slice(0, text.indexOf("\n"))) as AdoptedLine;
    })();
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`it did not answer within ${ADOPT_WAIT_MS} ms`)),
        ADOPT_WAIT_MS,
      );
    });
    return await Promise.race([first, late]);
  } catch (error) {
    killGroup(child.pid, "SIGKILL");
    try {
      Deno.removeSync(nextSocket(files.socket));
    } catch { /* never made */ }
    throw error;
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  }
}

function describeStatus(status: Deno.CommandStatus): string {
  return status.signal ? `signal ${status.signal}` : `code ${status.code}`;
}
