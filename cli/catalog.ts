/**
 * `mcpx catalog [--budget N] [--bias words]`: every namespace plus as many
 * signatures as fit the token budget (spec 000, "Context-budgeted catalog";
 * tokens as counted by discovery/tokens.ts).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { buildCatalog } from "../discovery/catalog.ts";

export async function run(ctx: CliContext): Promise<number> {
  const budget = Number(await ctx.setting("catalog.budget"));
  const bias = String(await ctx.setting("catalog.bias")).split(/[\s,]+/).filter(Boolean);
  const { namespaces } = await ctx.namespaces();
  const catalog = await buildCatalog(namespaces, { budget, bias });
  if (await ctx.json()) {
    ctx.io.out(JSON.stringify({ ...catalog, budget }, null, 2) + "\n");
    return 0;
  }
  ctx.io.out(catalog.text.endsWith("\n") ? catalog.text : catalog.text + "\n");
  return 0;
}
