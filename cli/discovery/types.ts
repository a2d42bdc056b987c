/**
 * `mcpx types <namespace>[.<tool>] …`: TypeScript declarations generated from
 * the servers' own JSON Schemas, read from the schema cache (spec 000, "The
 * generated client"; the op is ops/types.ts). `--json` prints the schemas and
 * declarations as data.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { TextView } from "../commands.ts";
import type { Answered } from "../../ops/outcome.ts";
import { renderTypes } from "../../discovery/typescript.ts";
import { answer, type TypesOutput } from "../../ops/types.ts";
import { listingWaitOf } from "../../ops/wait_flag.ts";
import type { InputOf } from "../../ops/op.ts";
import type { types } from "../../ops/discovery_ops.ts";

/** What only the terminal rendering of `types` shows: the declarations as one `.d.ts` text. */
export interface TypesExtra {
  /** discovery/typescript.ts `renderTypes` of the namespaces named, ending in a newline. */
  typescript: string;
}

/**
 * Runs `mcpx types`: the tools named, with their schemas and declarations;
 * its extra is the TypeScript the terminal prints (rendered here, where it
 * may have to be generated, so the renderer need not wait).
 *
 * @throws {UsageError} With no target; {NotFoundError} for an unknown one;
 *   {McpxError} `server-starting` for a namespace still starting (`--wait` waits for it).
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof types>,
): Promise<Answered<TypesOutput>> {
  // A server named on the command line is the whole answer: it is waited for unless told otherwise.
  const wait = ctx.direct && input.wait === undefined
    ? undefined
    : listingWaitOf(input.wait, await ctx.setting("discovery.wait"));
  const { output, namespaces } = await answer(input, ctx, wait);
  const extra: TypesExtra = { typescript: await renderTypes(namespaces) };
  return { kind: "ok", value: output, extra };
}

/** The declarations, as one `.d.ts` text. */
export function text(_output: TypesOutput, view: TextView): string {
  return (view.extra as TypesExtra).typescript;
}
