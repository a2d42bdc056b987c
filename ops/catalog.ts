/**
 * The `catalog` op: every namespace plus as many tool signatures as fit a
 * token budget (settings `catalog.budget` and `catalog.bias`), for a system
 * prompt (spec 000, "Context-budgeted catalog"; tokens as counted by
 * discovery/tokens.ts).
 *
 * @module
 */

import { listingWaitOf } from "./wait_flag.ts";
import type { InputOf, OutputOf } from "./op.ts";
import type { catalog } from "./discovery_ops.ts";
import type { OpHost } from "./host.ts";
import { buildCatalog } from "../discovery/catalog.ts";

/** What `catalog` answers (ops/discovery_outputs.ts `CatalogOutput`). */
export type CatalogOutput = OutputOf<typeof catalog>;

/**
 * Builds the catalog block.
 *
 * @param input The op's input: `wait` (ops/wait_flag.ts); the budget and the bias are settings.
 *   A namespace still starting is in the block as one with no tools listed yet.
 * @param host Settings `catalog.budget`, `catalog.bias` and the namespaces view.
 * @returns The block, its tokens, signatures shown of the total, and the budget.
 * @throws {McpxError} `no-config` when no configuration file was found.
 */
export async function handle(
  input: InputOf<typeof catalog>,
  host: OpHost,
): Promise<CatalogOutput> {
  const budget = await host.setting("catalog.budget");
  const bias = (await host.setting("catalog.bias")).split(/[\s,]+/).filter(Boolean);
  const wait = listingWaitOf(input.wait, await host.setting("discovery.wait"));
  const { namespaces } = await host.namespaces({ wait });
  return { ...(await buildCatalog(namespaces, { budget, bias })), budget };
}
