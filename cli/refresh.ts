/**
 * `mcpx refresh [namespace…]`: list servers again (all, or the named ones)
 * and rewrite the schema cache.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";

export async function run(ctx: CliContext, names: string[]): Promise<number> {
  const result = await ctx.request<Record<string, { tools?: number; error?: string }>>("list", {
    servers: names,
  });
  if (await ctx.json()) {
    ctx.io.out(JSON.stringify({ servers: result }, null, 2) + "\n");
  } else {
    ctx.io.out(renderTable(
      ["SERVER", "TOOLS", "RESULT"],
      Object.entries(result).map(([name, r]) => [
        name,
        r.tools === undefined ? "-" : String(r.tools),
        r.error ? truncate(`error: ${r.error}`, 100) : "ok",
      ]),
    ));
  }
  return Object.values(result).some((r) => r.error) ? 1 : 0;
}
