/**
 * `mcpx status`: each server's live instances (pid, KEY, holders, uptime,
 * calls, protocol revision, last error) and, for a server that failed, the full message and
 * stderr tail (spec 000, "Honest failure reporting"). Starts no daemon: with
 * none running it says so and shows cached failures. A pool that serves
 * several namespaces (an alias with its target's leasing) is one process: the
 * table shows each of its instances once, naming every namespace
 * (`everything,peek`); `--json` keeps one row per namespace, each with
 * `sharedWith` naming the others. The op is ops/status.ts.
 *
 * @module
 */

import { startingCell } from "../discovery/starting_note.ts";
import type { CliContext } from "./context.ts";
import { humanMs, renderTable, truncate } from "./table.ts";
import { printJson } from "./json_out.ts";
import { tailExcerpt } from "../core/tail_buffer.ts";
import { droppedSentence } from "../logs/writer.ts";
import { handle } from "../ops/status.ts";
import type { InputOf } from "../ops/op.ts";
import type { status } from "../ops/engine_ops.ts";

/**
 * Runs `mcpx status`: the op's rows (ops/status.ts) as JSON, or as a table
 * and, per failed server, its message and stderr tail.
 *
 * @returns Exit code 0.
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function run(ctx: CliContext, input: InputOf<typeof status>): Promise<number> {
  const output = await handle(input, ctx);
  if (await ctx.json()) {
    printJson(ctx.io, output);
    return 0;
  }
  const { servers: rows, logDropped, refused } = output;
  const lines: string[][] = [];
  const shown = new Set<string>();
  for (const row of rows) {
    if (row.instances.length === 0) {
      const state = row.starting ? startingCell(row.starting) : row.state;
      lines.push([row.namespace, "-", "-", row.sharing, "-", "-", "-", "-", state]);
    }
    // A shared pool's instances are listed once, under all of its namespaces.
    if (row.instances.length === 0 || shown.has(row.poolId)) continue;
    shown.add(row.poolId);
    const names = [row.namespace, ...(row.sharedWith ?? [])].join(",");
    for (const i of row.instances) {
      lines.push([
        names,
        i.pid ? String(i.pid) : "remote",
        i.key,
        row.sharing,
        String(i.holders),
        humanMs(i.uptimeMs),
        String(i.calls),
        i.protocol ?? "-",
        truncate(i.lastError ?? row.state, 60),
      ]);
    }
  }
  ctx.io.out(
    renderTable([
      "NAMESPACE",
      "PID",
      "KEY",
      "SHARING",
      "HOLDERS",
      "UPTIME",
      "CALLS",
      "PROTOCOL",
      "STATE/LAST ERROR",
    ], lines),
  );
  for (const row of rows) {
    if (row.unavailable?.code === "untrusted") {
      ctx.io.out(
        `\n${row.namespace} (server "${row.server}") is not trusted:\n  ${row.unavailable.message}\n`,
      );
      continue;
    }
    if (row.unavailable) {
      ctx.io.out(
        `\n${row.namespace} (server "${row.server}") cannot start:\n  ${row.unavailable.message}\n`,
      );
      continue;
    }
    const failure = row.failure ?? row.cacheError;
    if (!failure) continue;
    const stderr = row.failure ? row.failure.stderrTail : row.cacheError?.stderr;
    ctx.io.out(
      `\n${row.namespace} (server "${row.server}") failed:\n  ${
        failure.message.replaceAll("\n", "\n  ")
      }\n`,
    );
    const retryAt = !row.failure && row.cacheError?.retryAt
      ? Date.parse(row.cacheError.retryAt)
      : NaN;
    if (retryAt > Date.now()) {
      const count = row.cacheError?.count ?? 1;
      ctx.io.out(
        `  listing failed ${count} time${count > 1 ? "s" : ""} in a row; discovery lists it ` +
          `again in ${humanMs(retryAt - Date.now())} (\`mcpx refresh ${row.namespace}\` now)\n`,
      );
    }
    if (row.failure && row.failure.retryInMs > 0) {
      ctx.io.out(
        `  ${row.failure.count} failed start(s); next attempt allowed in ${
          humanMs(row.failure.retryInMs)
        }\n`,
      );
    }
    const excerpt = stderr ? tailExcerpt(stderr) : "";
    if (excerpt && !failure.message.includes(excerpt)) {
      ctx.io.out(`  stderr tail:\n    ${excerpt.replaceAll("\n", "\n    ")}\n`);
    }
  }
  if (logDropped) ctx.io.out(`\nlog: ${droppedSentence(logDropped)}\n`);
  if (refused) {
    ctx.io.out(
      `\nno daemon can run: its socket directory is refused: ${refused.message}\n`,
    );
  }
  return 0;
}
