/**
 * `mcpx refresh [namespace…]`: list servers again (all, or the named ones)
 * and rewrite the schema cache.
 *
 * A server is listed through the process calls use, when one is running, so
 * refreshing never costs a browser its pages or a server its memory. That
 * process answers as the code it started with: when a listing came from one
 * already running, refresh says since when and that `mcpx restart` replaces
 * it (decision 0025).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";
import type { ListResult } from "../engine/tool_listing.ts";
import { printJson } from "./json_out.ts";
import type { InputOf, OutputOf } from "../ops/op.ts";
import type { refresh } from "../ops/engine_ops.ts";

export async function run(ctx: CliContext, input: InputOf<typeof refresh>): Promise<number> {
  const names = input.namespaces;
  const result = await ctx.request<Record<string, ListResult>>("list", { servers: names });
  if (await ctx.json()) {
    const output: OutputOf<typeof refresh> = { servers: result };
    printJson(ctx.io, output);
  } else {
    ctx.io.out(renderTable(
      ["SERVER", "TOOLS", "RESULT"],
      Object.entries(result).map(([name, r]) => [
        name,
        r.tools === undefined ? "-" : String(r.tools),
        r.error ? truncate(`error: ${r.error}`, 100) : "ok",
      ]),
    ));
    const namespaces = new Map((await ctx.config()).servers.map((s) => [s.name, s.namespace]));
    for (const [name, r] of Object.entries(result)) {
      if (!r.listedBy) continue;
      const ns = namespaces.get(name) ?? name;
      const pid = r.listedBy.pid ? `pid ${r.listedBy.pid}, ` : "";
      ctx.io.out(
        `${name}: listed by its running process (${pid}started ${r.listedBy.startedAt}), which ` +
          `answers as the code it started with; if the server changed since, ` +
          `\`mcpx restart ${ns}\` then \`mcpx refresh ${ns}\` lists the new one.\n`,
      );
    }
  }
  return Object.values(result).some((r) => r.error) ? 1 : 0;
}
