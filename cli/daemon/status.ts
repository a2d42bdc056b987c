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

import { startingCell } from "../../discovery/starting_note.ts";
import type { CliContext } from "../context.ts";
import { humanMs, renderTable, truncate } from "../table.ts";
import { tailExcerpt } from "../../core/tail_buffer.ts";
import { droppedSentence } from "../../logs/writer.ts";
import { handle as statusOf, type StatusOutput } from "../../ops/status.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import type { InputOf } from "../../ops/op.ts";
import type { status } from "../../ops/engine_ops.ts";

/**
 * Runs `mcpx status`: the op's rows (ops/status.ts).
 *
 * @returns `ok` with the status document.
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof status>,
): Promise<Answered<StatusOutput>> {
  return ok(await statusOf(input, ctx));
}

/**
 * The terminal's rendering: a table of instances and, per server that failed
 * or cannot start, its message, its retry times and its stderr tail.
 */
export function text(output: StatusOutput): string {
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
  let out = renderTable([
    "NAMESPACE",
    "PID",
    "KEY",
    "SHARING",
    "HOLDERS",
    "UPTIME",
    "CALLS",
    "PROTOCOL",
    "STATE/LAST ERROR",
  ], lines);
  for (const row of rows) {
    if (row.unavailable?.code === "untrusted") {
      out +=
        `\n${row.namespace} (server "${row.server}") is not trusted:\n  ${row.unavailable.message}\n`;
      continue;
    }
    if (row.unavailable) {
      out +=
        `\n${row.namespace} (server "${row.server}") cannot start:\n  ${row.unavailable.message}\n`;
      continue;
    }
    const failure = row.failure ?? row.cacheError;
    if (!failure) continue;
    const stderr = row.failure ? row.failure.stderrTail : row.cacheError?.stderr;
    out += `\n${row.namespace} (server "${row.server}") failed:\n  ${
      failure.message.replaceAll("\n", "\n  ")
    }\n`;
    const retryAt = !row.failure && row.cacheError?.retryAt
      ? Date.parse(row.cacheError.retryAt)
      : NaN;
    if (retryAt > Date.now()) {
      const count = row.cacheError?.count ?? 1;
      out += `  listing failed ${count} time${count > 1 ? "s" : ""} in a row; discovery lists it ` +
        `again in ${humanMs(retryAt - Date.now())} (\`mcpx refresh ${row.namespace}\` now)\n`;
    }
    if (row.failure && row.failure.retryInMs > 0) {
      out += `  ${row.failure.count} failed start(s); next attempt allowed in ${
        humanMs(row.failure.retryInMs)
      }\n`;
    }
    const excerpt = stderr ? tailExcerpt(stderr) : "";
    if (excerpt && !failure.message.includes(excerpt)) {
      out += `  stderr tail:\n    ${excerpt.replaceAll("\n", "\n    ")}\n`;
    }
  }
  if (logDropped) out += `\nlog: ${droppedSentence(logDropped)}\n`;
  if (refused) {
    out += `\nno daemon can run: its socket directory is refused: ${refused.message}\n`;
  }
  return out;
}
