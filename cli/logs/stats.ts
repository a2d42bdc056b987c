/**
 * `mcpx stats [calls|slowest|servers|instances|errors|sessions|volume]
 * [--since T] [-n N]`: aggregates of the durable log, after ingesting what
 * the files gained (spec 000, "Reading the log"). `calls` when no view is
 * named.
 *
 * `--json`: `{ "view", "since"?, "rows" }` (`volume`: `{ "view", "since"?,
 * "hours", "disk" }`).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { humanMs, renderTable, truncate } from "../table.ts";
import { UsageError } from "../../core/errors.ts";
import { openIngested, rebuildWhenDamaged } from "../../logs/ingest.ts";
import { parseSince } from "../../logs/since.ts";
import { localTime } from "../../logs/render.ts";
import {
  callsView,
  errorsView,
  instancesView,
  serversView,
  sessionsView,
  slowestView,
  STATS_VIEWS,
  type StatsView,
  volumeView,
} from "../../logs/stats.ts";
import { nearest } from "../../core/nearest.ts";
import type { InputOf } from "../../ops/op.ts";
import type { stats } from "../../ops/log_ops.ts";
import type { Text, TextView } from "../commands.ts";
import type { Answered } from "../../ops/outcome.ts";

/** What `mcpx stats` answers: the view's name, the start of its window, its rows (or volume's hours and disk). */
export type StatsOutput =
  | { view: Exclude<StatsView, "volume">; since?: string; rows: unknown[] }
  | ({ view: "volume"; since?: string } & ReturnType<typeof volumeView>);

/**
 * Answers `mcpx stats`: one view of the durable log, after ingesting what
 * the files gained.
 *
 * @returns `{ view, since?, rows }` (`volume`: `{ view, since?, hours, disk }`);
 *   its extra is the log folder, which volume's text names.
 * @throws {UsageError} For an unknown view, a bad `--since` or `--limit`.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof stats>,
): Promise<Answered<StatsOutput>> {
  const options: Record<string, unknown> = input;
  // A query that finds index.db damaged: rebuilt from the log files, asked again.
  return await rebuildWhenDamaged(await ctx.logsDir(), () => answer(ctx, input.view, options));
}

async function answer(
  ctx: CliContext,
  named: string | undefined,
  options: Record<string, unknown>,
): Promise<Answered<StatsOutput>> {
  const view = (named ?? "calls") as StatsView;
  if (!STATS_VIEWS.includes(view)) {
    const near = nearest(view, [...STATS_VIEWS]);
    throw new UsageError(
      `unknown view "${view}"${near.length ? `; did you mean ${near.join(" or ")}?` : ""} (views: ${
        STATS_VIEWS.join(", ")
      })`,
    );
  }
  let since = 0;
  if (typeof options.since === "string") {
    try {
      since = parseSince(options.since);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  let limit: number | undefined;
  if (options.limit !== undefined) {
    limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1) {
      throw new UsageError(
        `--limit wants a whole number ≥ 1, got ${JSON.stringify(options.limit)}`,
      );
    }
  }
  const dir = await ctx.logsDir();
  const { db } = openIngested(dir);
  try {
    const head = { ...(since ? { since: new Date(since).toISOString() } : {}) };
    const rowsOf = (): unknown[] => {
      switch (view) {
        case "calls":
          return callsView(db, since);
        case "slowest":
          return slowestView(db, since, limit ?? 20);
        case "servers":
          return serversView(db, since);
        case "instances":
          return instancesView(db, since, limit ?? 50);
        case "errors":
          return errorsView(db, since, limit ?? 20);
        case "sessions":
          return sessionsView(db, since, limit ?? 50);
        case "volume":
          return [];
      }
    };
    const output: StatsOutput = view === "volume"
      ? { view, ...head, ...volumeView(db, dir, since) }
      : { view, ...head, rows: rowsOf() };
    return { kind: "ok", value: output, extra: { dir } };
  } finally {
    db.close();
  }
}

/** Each view's table; nothing recorded is said on stderr; volume ends with what the log takes on disk. */
export function text(output: StatsOutput, view: TextView): Text {
  if (output.view === "volume") {
    const { dir } = (view.extra ?? {}) as { dir?: string };
    const { files, fileBytes, indexBytes } = output.disk;
    return renderTable(
      ["HOUR (UTC)", "DEBUG", "INFO", "WARN", "ERROR", "TOTAL"],
      output.hours.map((h) => [
        h.hour,
        String(h.debug),
        String(h.info),
        String(h.warn),
        String(h.error),
        String(h.total),
      ]),
    ) +
      `on disk: ${files} log file${files === 1 ? "" : "s"}, ${bytes(fileBytes)}; index ${
        bytes(indexBytes)
      } (${dir})\n`;
  }
  if (output.rows.length === 0) {
    return {
      err: `Nothing recorded${output.since ? " since then" : ""} for \`stats ${output.view}\`.\n`,
    };
  }
  return table(output);
}

function table(output: Exclude<StatsOutput, { view: "volume" }>): string {
  switch (output.view) {
    case "calls":
      return renderTable(
        ["NAMESPACE", "TOOL", "CALLS", "ERRORS", "P50 MS", "P95 MS", "P99 MS", "MAX MS"],
        (output.rows as ReturnType<typeof callsView>).map((r) => [
          r.namespace,
          r.tool,
          String(r.calls),
          String(r.errors),
          String(r.p50),
          String(r.p95),
          String(r.p99),
          String(r.max),
        ]),
      );
    case "slowest":
      return renderTable(
        ["TIME", "CALL", "TOOL", "MS", "SESSION", "OK"],
        (output.rows as ReturnType<typeof slowestView>).map((r) => [
          localTime(r.time),
          r.call,
          `${r.namespace}.${r.tool}`,
          String(r.ms),
          r.session ?? "-",
          r.ok ? "ok" : truncate(`error: ${r.error ?? ""}`, 80),
        ]),
      ) + "(`mcpx log --chain <call>` shows what led to one)\n";
    case "servers":
      return renderTable(
        ["SERVER", "STARTS", "RUNNING", "FAILED", "EXITS", "CALLS", "ERRORS", "LAST START"],
        (output.rows as ReturnType<typeof serversView>).map((r) => [
          r.server,
          String(r.starts),
          String(r.running),
          String(r.failedStarts),
          Object.entries(r.exits).map(([why, n]) => `${why} ${n}`).join(", ") || "-",
          String(r.calls),
          String(r.errors),
          r.lastStart ? localTime(r.lastStart) : "-",
        ]),
      );
    case "instances":
      return renderTable(
        ["INSTANCE", "SERVER", "PID", "KEY", "STARTED", "UPTIME", "CALLS", "STOPPED"],
        (output.rows as ReturnType<typeof instancesView>).map((r) => [
          r.instance,
          r.server,
          r.pid === undefined ? "-" : String(r.pid),
          r.key ?? "",
          localTime(r.started),
          r.uptimeMs === undefined ? "-" : humanMs(r.uptimeMs),
          String(r.calls),
          r.why
            ? `${r.why}${
              r.signal ? ` (${r.signal})` : r.code !== undefined ? ` (code ${r.code})` : ""
            }`
            : "no exit recorded",
        ]),
      );
    case "errors":
      return renderTable(
        ["COUNT", "LEVEL", "LAST", "WHERE", "TEMPLATE"],
        (output.rows as ReturnType<typeof errorsView>).map((r) => [
          String(r.count),
          r.level,
          localTime(r.last),
          truncate(r.where.join(", "), 40),
          truncate(r.template, 120),
        ]),
      );
    case "sessions":
      return renderTable(
        ["SESSION", "KIND", "CALLS", "ERRORS", "TIME IN CALLS", "LAST", "TOOLS"],
        (output.rows as ReturnType<typeof sessionsView>).map((r) => [
          r.session ?? "(none)",
          r.kind,
          String(r.calls),
          String(r.errors),
          humanMs(r.ms),
          localTime(r.last),
          truncate(r.tools.join(", "), 60),
        ]),
      );
  }
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
