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

import type { CliContext } from "./context.ts";
import { humanMs, renderTable, truncate } from "./table.ts";
import { UsageError } from "../core/errors.ts";
import { openIngested, rebuildWhenDamaged } from "../logs/ingest.ts";
import { parseSince } from "../logs/since.ts";
import { localTime } from "../logs/render.ts";
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
} from "../logs/stats.ts";
import { nearest } from "../core/nearest.ts";
import type { InputOf } from "../ops/op.ts";
import type { stats } from "../ops/log_ops.ts";
import { printJson } from "./json_out.ts";

export async function run(
  ctx: CliContext,
  input: InputOf<typeof stats>,
): Promise<number> {
  const positionals = input.view === undefined ? [] : [input.view];
  const options: Record<string, unknown> = input;
  // A query that finds index.db damaged: rebuilt from the log files, asked again.
  return await rebuildWhenDamaged(await ctx.logsDir(), () => runStats(ctx, positionals, options));
}

async function runStats(
  ctx: CliContext,
  positionals: string[],
  options: Record<string, unknown>,
): Promise<number> {
  const view = (positionals[0] ?? "calls") as StatsView;
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
  const json = options.json === true || await ctx.json().catch(() => false);
  const dir = await ctx.logsDir();
  const { db } = openIngested(dir);
  try {
    const head = { view, ...(since ? { since: new Date(since).toISOString() } : {}) };
    const out = (rows: unknown, table: () => string) => {
      if (json) printJson(ctx.io, { ...head, rows });
      else if (Array.isArray(rows) && rows.length === 0) {
        ctx.io.err(`Nothing recorded${since ? " since then" : ""} for \`stats ${view}\`.\n`);
      } else ctx.io.out(table());
    };
    switch (view) {
      case "calls": {
        const rows = callsView(db, since);
        out(rows, () =>
          renderTable(
            ["NAMESPACE", "TOOL", "CALLS", "ERRORS", "P50 MS", "P95 MS", "P99 MS", "MAX MS"],
            rows.map((r) => [
              r.namespace,
              r.tool,
              String(r.calls),
              String(r.errors),
              String(r.p50),
              String(r.p95),
              String(r.p99),
              String(r.max),
            ]),
          ));
        break;
      }
      case "slowest": {
        const rows = slowestView(db, since, limit ?? 20);
        out(rows, () =>
          renderTable(
            ["TIME", "CALL", "TOOL", "MS", "SESSION", "OK"],
            rows.map((r) => [
              localTime(r.time),
              r.call,
              `${r.namespace}.${r.tool}`,
              String(r.ms),
              r.session ?? "-",
              r.ok ? "ok" : truncate(`error: ${r.error ?? ""}`, 80),
            ]),
          ) + "(`mcpx log --chain <call>` shows what led to one)\n");
        break;
      }
      case "servers": {
        const rows = serversView(db, since);
        out(rows, () =>
          renderTable(
            ["SERVER", "STARTS", "RUNNING", "FAILED", "EXITS", "CALLS", "ERRORS", "LAST START"],
            rows.map((r) => [
              r.server,
              String(r.starts),
              String(r.running),
              String(r.failedStarts),
              Object.entries(r.exits).map(([why, n]) => `${why} ${n}`).join(", ") || "-",
              String(r.calls),
              String(r.errors),
              r.lastStart ? localTime(r.lastStart) : "-",
            ]),
          ));
        break;
      }
      case "instances": {
        const rows = instancesView(db, since, limit ?? 50);
        out(rows, () =>
          renderTable(
            ["INSTANCE", "SERVER", "PID", "KEY", "STARTED", "UPTIME", "CALLS", "STOPPED"],
            rows.map((r) => [
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
          ));
        break;
      }
      case "errors": {
        const rows = errorsView(db, since, limit ?? 20);
        out(rows, () =>
          renderTable(
            ["COUNT", "LEVEL", "LAST", "WHERE", "TEMPLATE"],
            rows.map((r) => [
              String(r.count),
              r.level,
              localTime(r.last),
              truncate(r.where.join(", "), 40),
              truncate(r.template, 120),
            ]),
          ));
        break;
      }
      case "sessions": {
        const rows = sessionsView(db, since, limit ?? 50);
        out(rows, () =>
          renderTable(
            ["SESSION", "KIND", "CALLS", "ERRORS", "TIME IN CALLS", "LAST", "TOOLS"],
            rows.map((r) => [
              r.session ?? "(none)",
              r.kind,
              String(r.calls),
              String(r.errors),
              humanMs(r.ms),
              localTime(r.last),
              truncate(r.tools.join(", "), 60),
            ]),
          ));
        break;
      }
      case "volume": {
        const volume = volumeView(db, dir, since);
        if (json) {
          printJson(ctx.io, { ...head, ...volume });
          break;
        }
        ctx.io.out(renderTable(
          ["HOUR (UTC)", "DEBUG", "INFO", "WARN", "ERROR", "TOTAL"],
          volume.hours.map((h) => [
            h.hour,
            String(h.debug),
            String(h.info),
            String(h.warn),
            String(h.error),
            String(h.total),
          ]),
        ));
        const { files, fileBytes, indexBytes } = volume.disk;
        ctx.io.out(
          `on disk: ${files} log file${files === 1 ? "" : "s"}, ${bytes(fileBytes)}; index ${
            bytes(indexBytes)
          } (${dir})\n`,
        );
        break;
      }
    }
    return 0;
  } finally {
    db.close();
  }
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
