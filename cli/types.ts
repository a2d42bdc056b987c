/**
 * `mcpx types <namespace>[.<tool>] …`: TypeScript declarations generated from
 * the servers' own JSON Schemas, read from the schema cache (spec 000, "The
 * generated client"; the op is ops/types.ts). `--json` prints the schemas and
 * declarations as data.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { printJson } from "./json_out.ts";
import { renderTypes } from "../discovery/typescript.ts";
import { answer } from "../ops/types.ts";
import { listingWaitOf } from "../ops/wait_flag.ts";
import type { InputOf } from "../ops/op.ts";
import type { types } from "../ops/discovery_ops.ts";

/**
 * Runs `mcpx types`.
 *
 * @returns Exit code 0.
 * @throws {UsageError} With no target; {NotFoundError} for an unknown one;
 *   {McpxError} `server-starting` for a namespace still starting (`--wait` waits for it).
 */
export async function run(ctx: CliContext, input: InputOf<typeof types>): Promise<number> {
  // A server named on the command line is the whole answer: it is waited for unless told otherwise.
  const wait = ctx.direct && input.wait === undefined
    ? undefined
    : listingWaitOf(input.wait, await ctx.setting("discovery.wait"));
  const { output, namespaces } = await answer(input, ctx, wait);
  if (await ctx.json()) {
    printJson(ctx.io, output);
    return 0;
  }
  ctx.io.out(await renderTypes(namespaces));
  return 0;
}
