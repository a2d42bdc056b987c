/**
 * `mcpx restart <namespace>`: stop every instance of a namespace; the next
 * call starts a fresh one.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { UsageError } from "../errors.ts";

export async function run(ctx: CliContext, names: string[]): Promise<number> {
  if (names.length !== 1) throw new UsageError("name one namespace: `mcpx restart <namespace>`");
  const { stopped } = await ctx.request<{ stopped: number }>("restart", { namespace: names[0] });
  if (await ctx.json()) ctx.io.out(JSON.stringify({ namespace: names[0], stopped }) + "\n");
  else {ctx.io.out(
      `${names[0]}: stopped ${stopped} instance${
        stopped === 1 ? "" : "s"
      }; the next call starts a fresh one\n`,
    );}
  return 0;
}
