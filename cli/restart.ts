/**
 * `mcpx restart <namespace>`: stop every instance of a namespace; the next
 * call starts a fresh one.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { UsageError } from "../errors.ts";
import { findNamespace } from "../discovery/view.ts";

export async function run(ctx: CliContext, names: string[]): Promise<number> {
  if (names.length !== 1) throw new UsageError("name one namespace: `mcpx restart <namespace>`");
  const { namespaces, disabled } = await ctx.namespaces({ listMissing: false });
  findNamespace(namespaces, names[0], disabled); // an unknown name is an error with suggestions
  // With no daemon running there is nothing to restart: do not start one to stop nothing.
  const { probeDaemon } = await import("./daemon_connect.ts");
  const socket = await ctx.existingDaemonSocket();
  const stopped = (await probeDaemon(socket))
    ? (await ctx.request<{ stopped: number }>("restart", { namespace: names[0] })).stopped
    : 0;
  if (await ctx.json()) ctx.io.out(JSON.stringify({ namespace: names[0], stopped }) + "\n");
  else {ctx.io.out(
      `${names[0]}: stopped ${stopped} instance${
        stopped === 1 ? "" : "s"
      }; the next call starts a fresh one\n`,
    );}
  return 0;
}
