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

import type { CliContext } from "../context.ts";
import { renderTable, truncate } from "../table.ts";
import type { ListResult } from "../../engine/tool_listing.ts";
import type { TextView } from "../commands.ts";
import { type Answered, failed, ok } from "../../ops/outcome.ts";
import { own } from "../../core/own.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { refresh } from "../../ops/engine_ops.ts";

/** What `mcpx refresh` answers, with each listed server's namespace for the terminal. */
type RefreshOutput = OutputOf<typeof refresh>;

/**
 * Lists the named servers (all without names) again through the daemon.
 *
 * @returns `ok` with `{ servers }`, each server's listing; `failed` with the
 *   same document when any listing failed (exit 1). Its extra maps each
 *   server to its namespace, for the terminal's `mcpx restart` advice.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof refresh>,
): Promise<Answered<RefreshOutput>> {
  const result = await ctx.request<Record<string, ListResult>>("list", {
    servers: input.namespaces,
  });
  const output: RefreshOutput = { servers: result };
  const answered = Object.values(result).some((r) => r.error) ? failed(output) : ok(output);
  // Only the terminal's advice names namespaces; read only when a listing needs it.
  if (!Object.values(result).some((r) => r.listedBy)) return answered;
  const namespaces = Object.fromEntries(
    (await ctx.config()).servers.map((s) => [s.name, s.namespace]),
  );
  return { ...answered, extra: { namespaces } };
}

/**
 * The terminal's rendering: a row per server (tools, `ok` or its error), then
 * for each listed by a process already running, since when and how to list
 * the server's new code.
 */
export function text(output: RefreshOutput, view: TextView): string {
  const result = output.servers as Record<string, ListResult>;
  const { namespaces = {} } = (view.extra ?? {}) as { namespaces?: Record<string, string> };
  let out = renderTable(
    ["SERVER", "TOOLS", "RESULT"],
    Object.entries(result).map(([name, r]) => [
      name,
      r.tools === undefined ? "-" : String(r.tools),
      r.error ? truncate(`error: ${r.error}`, 100) : "ok",
    ]),
  );
  for (const [name, r] of Object.entries(result)) {
    if (!r.listedBy) continue;
    const ns = own(namespaces, name) ?? name;
    const pid = r.listedBy.pid ? `pid ${r.listedBy.pid}, ` : "";
    out += `${name}: listed by its running process (${pid}started ${r.listedBy.startedAt}), ` +
      `which answers as the code it started with; if the server changed since, ` +
      `\`mcpx restart ${ns}\` then \`mcpx refresh ${ns}\` lists the new one.\n`;
  }
  return out;
}
