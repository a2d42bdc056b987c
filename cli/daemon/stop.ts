/**
 * `mcpx stop [--all]`: stop this configuration's daemon, or every daemon.
 * Waits until each is gone, so nothing it held outlives the command; servers
 * that a daemon killed with SIGKILL left running are ended too.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { requestDaemon } from "../../wire/daemon_request.ts";
import { pollUntil } from "../../core/deadline.ts";
import { liveDaemons } from "./daemons.ts";
import { probeDaemon } from "../daemon_connect.ts";
import { ConfigError } from "../../core/errors.ts";
import { daemonFiles, groupLedgers } from "../../wire/locate.ts";
import { sweepOrphanGroups } from "../../engine/process_groups.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { stop } from "../../ops/engine_ops.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import { endFront } from "../relay/front_stop.ts";

/**
 * True while `pid` runs. A zombie has finished: once a CLI that started the
 * daemon has exited, the daemon's parent is init, which may reap it late or
 * never, and everything the daemon held is already released by then.
 */
function running(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch { /* no /proc (macOS), or the pid is gone */ }
  try {
    Deno.kill(pid, "SIGCONT"); // signal 0 stand-in: throws once the pid is gone
    return true;
  } catch {
    return false;
  }
}

async function stopOne(socket: string): Promise<boolean> {
  const health = await probeDaemon(socket);
  if (!health) return false;
  try {
    await requestDaemon(socket, "stop", {}, { timeoutMs: 5000 });
  } catch { /* it closed the connection while going */ }
  const gone = await pollUntil(() => running(health.pid) ? undefined : true, 15_000);
  if (!gone) {
    try {
      Deno.kill(health.pid, "SIGKILL");
    } catch { /* gone */ }
  }
  return true;
}

/** This configuration's daemon socket; a broken configuration's error says how to stop anyway. */
async function thisDaemonSocket(ctx: CliContext): Promise<string> {
  try {
    return await ctx.existingDaemonSocket();
  } catch (error) {
    if (error instanceof ConfigError) {
      error.message += " (mcpx stop --all stops every daemon without reading it)";
    }
    throw error;
  }
}

/**
 * Stops this configuration's daemon (or every daemon with `--all`) and ends
 * the servers dead daemons left behind.
 *
 * @returns `{ stopped, orphans? }`: daemons stopped, servers ended.
 * @throws {ConfigError} When the configuration cannot be read (without `--all`).
 */
export async function handle(
  ctx: CliContext,
  options: InputOf<typeof stop>,
): Promise<Answered<OutputOf<typeof stop>>> {
  // Resolved first: its errors are not the configuration's. --all reads no
  // configuration, so it works where the configuration is broken.
  const stateDir = ctx.paths().stateDir;
  const sockets = options.all
    ? (await liveDaemons(stateDir)).map((d) => d.socket)
    : [await thisDaemonSocket(ctx)];
  const results = await Promise.all(sockets.map(stopOne));
  const stopped = results.filter(Boolean).length;
  // Servers that daemons killed without a chance to stop them left behind (decision 0006).
  const ledgers = options.all
    ? groupLedgers(stateDir)
    : [daemonFiles(stateDir, (await ctx.config()).fingerprint, (name) => ctx.env[name]).groups];
  const orphans = (await sweepOrphanGroups(ledgers)).filter((g) => g.killed).length;
  // The front the warm commands are relayed to is the state folder's too (decision 0068).
  const front = options.all && await endFront(ctx.env);
  return ok({ stopped, ...(orphans ? { orphans } : {}), ...(front ? { front } : {}) });
}

/** `--json` prints the acknowledgement on one line. */
export const jsonLine = true;

/** `stopped 1 daemon; ended 2 servers left by a daemon that died; ended the front process`. */
export function text({ stopped, orphans, front }: OutputOf<typeof stop>): string {
  return (stopped
    ? `stopped ${stopped} daemon${stopped === 1 ? "" : "s"}`
    : "no daemon was running") +
    (orphans
      ? `; ended ${orphans} server${orphans === 1 ? "" : "s"} left by a daemon that died`
      : "") +
    (front ? "; ended the front process" : "") +
    "\n";
}
