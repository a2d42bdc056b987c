/**
 * `mcpx stop [--all]`: stop this configuration's daemon, or every daemon.
 * Waits until each is gone, so nothing it held outlives the command.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { requestDaemon } from "../client/daemon_request.ts";
import { pollUntil } from "../daemon/deadline.ts";
import { liveDaemons } from "./daemons.ts";
import { probeDaemon } from "./daemon_connect.ts";

async function stopOne(socket: string): Promise<boolean> {
  const health = await probeDaemon(socket);
  if (!health) return false;
  try {
    await requestDaemon(socket, "stop", {}, { timeoutMs: 5000 });
  } catch { /* it closed the connection while going */ }
  const gone = await pollUntil(() => {
    try {
      Deno.kill(health.pid, "SIGCONT"); // signal 0 stand-in: throws once the pid is gone
      return undefined;
    } catch {
      return true;
    }
  }, 15_000);
  if (!gone) {
    try {
      Deno.kill(health.pid, "SIGKILL");
    } catch { /* gone */ }
  }
  return true;
}

export async function run(
  ctx: CliContext,
  _p: string[],
  options: Record<string, unknown>,
): Promise<number> {
  const sockets = options.all
    ? (await liveDaemons(ctx.paths().stateDir)).map((d) => d.socket)
    : [await ctx.existingDaemonSocket()];
  const results = await Promise.all(sockets.map(stopOne));
  const stopped = results.filter(Boolean).length;
  if (await ctx.json()) ctx.io.out(JSON.stringify({ stopped }) + "\n");
  else {ctx.io.out(
      stopped
        ? `stopped ${stopped} daemon${stopped === 1 ? "" : "s"}\n`
        : "no daemon was running\n",
    );}
  return 0;
}
