/**
 * `mcpx catalog [--budget N] [--bias words]`: every namespace plus as many
 * signatures as fit the token budget (spec 000, "Context-budgeted catalog";
 * the op is ops/catalog.ts).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { type CatalogOutput, handle as catalogOf } from "../../ops/catalog.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import type { InputOf } from "../../ops/op.ts";
import type { catalog } from "../../ops/discovery_ops.ts";

/**
 * Runs `mcpx catalog`: the block and its counts.
 *
 * @throws {McpxError} `no-config` when no configuration file was found.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof catalog>,
): Promise<Answered<CatalogOutput>> {
  return ok(await catalogOf(input, ctx));
}

/** The block alone, ending in a newline. */
export function text(output: CatalogOutput): string {
  return output.text.endsWith("\n") ? output.text : output.text + "\n";
}
