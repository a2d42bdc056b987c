/**
 * `mcpx log`: the durable log, read through its index (spec 000, "Reading
 * the log"). Every run first ingests what the files gained since the last
 * one (logs/ingest.ts), then answers.
 *
 * - `mcpx log [--since 1h] [--level warn] [--event 'server.*'] [--server S]
 *   [--session K] [--grep RE] [-n N] [-f]` — records, newest last.
 * - `mcpx log --chain [<id>]` — a call (or any span or record id) and what
 *   led to it, as an indented tree; without an id, recent call ids.
 * - `mcpx log sql '<select …>' | --schema | --path` — a read-only query on
 *   the index.
 *
 * `--json`: `{ "records": [...] }`, `{ "chain": [...] }`, `{ "calls": [...] }`,
 * `{ "columns", "rows" }`; with `-f`, one record per line as they arrive.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import type { CliContext } from "./context.ts";
import { renderTable } from "./table.ts";
import { NotFoundError, UsageError } from "../core/errors.ts";
import { ingest, openIngested, rebuildWhenDamaged } from "../logs/ingest.ts";
import { indexPath, openIndexReadOnly } from "../logs/index_db.ts";
import { runSqlBounded } from "../logs/sql_bounded.ts";
import { printedSqlAnswer } from "./log_sql_print.ts";
import { isBlankSql } from "../logs/sql_guard.ts";
import type { SqlStop } from "../logs/sql_query.ts";
import { settingFlagName } from "../config/settings.ts";
import { chainOf, findRecords, recentCalls, type RecordQuery } from "../logs/query.ts";
import { encodeRecord, type Level, LEVEL_RANK, type LogRecord } from "../logs/record.ts";
import { localTime, renderRecord } from "../logs/render.ts";
import { parseSince } from "../logs/since.ts";
import type { InputOf } from "../ops/op.ts";
import type { log } from "../ops/log_ops.ts";
import { printJson } from "./json_out.ts";

/** Records printed when `--limit` is not given. */
const DEFAULT_LIMIT = 100;
/** How often `-f` looks for new records, in ms. */
const FOLLOW_MS = 200;

export async function run(
  ctx: CliContext,
  input: InputOf<typeof log>,
): Promise<number> {
  const { args: positionals } = input;
  const options: Record<string, unknown> = { ...input, session: ctx.sessionFlag };
  // A query that finds index.db damaged: rebuilt from the log files, asked again.
  return await rebuildWhenDamaged(await ctx.logsDir(), () => runLog(ctx, positionals, options));
}

async function runLog(
  ctx: CliContext,
  positionals: string[],
  options: Record<string, unknown>,
): Promise<number> {
  const dir = await ctx.logsDir();
  const json = options.json === true || await ctx.json().catch(() => false);
  if (positionals[0] === "sql") return await sql(ctx, dir, positionals.slice(1), options, json);
  if (options.schema || options.path) {
    throw new UsageError("--schema and --path belong to `mcpx log sql`");
  }
  if (options.chain) {
    if (positionals.length > 1) {
      throw new UsageError(`--chain takes one id, got ${positionals.length}`);
    }
    return chain(ctx, dir, positionals[0], options, json);
  }
  if (positionals.length) {
    throw new UsageError(
      `unexpected ${
        JSON.stringify(positionals[0])
      }; \`mcpx log\` takes options, \`mcpx log sql '<select …>'\` a query, \`--chain <id>\` an id`,
    );
  }
  const query = recordQuery(options);
  const { db } = openIngested(dir);
  try {
    const { records, lastSeq } = findRecords(db, query);
    if (!options.follow) {
      if (json) {
        printJson(ctx.io, { records: records.map((r) => r.record) });
      } else if (records.length === 0) {
        ctx.io.err(`No records${describeFilter(options)} in ${dir}.\n`);
      } else {
        for (const { record } of records) ctx.io.out(renderRecord(record) + "\n");
      }
      return 0;
    }
    const print = (record: LogRecord) =>
      ctx.io.out(json ? encodeRecord(record) : renderRecord(record) + "\n");
    for (const { record } of records) print(record);
    await follow(db, dir, { ...query, limit: undefined }, lastSeq, print, ctx.io.stdoutGone);
    return 0;
  } finally {
    db.close();
  }
}

/** The filters of `mcpx log` from its options. @throws {UsageError} naming the bad value. */
function recordQuery(options: Record<string, unknown>): RecordQuery {
  const query: RecordQuery = { limit: positiveInt(options.limit, "--limit") ?? DEFAULT_LIMIT };
  if (typeof options.since === "string") {
    try {
      query.since = parseSince(options.since);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (typeof options.level === "string") {
    if (!(options.level in LEVEL_RANK)) {
      throw new UsageError(
        `--level must be one of debug, info, warn, error, got ${JSON.stringify(options.level)}`,
      );
    }
    query.level = options.level as Level;
  }
  if (typeof options.event === "string") {
    query.events = options.event.split(",").map((e) => e.trim()).filter(Boolean);
  }
  if (typeof options.server === "string") query.server = options.server;
  if (typeof options.session === "string") query.session = options.session;
  if (typeof options.grep === "string") {
    try {
      query.grep = new RegExp(options.grep);
    } catch (error) {
      throw new UsageError(`--grep: ${(error as Error).message}`);
    }
  }
  return query;
}

function positiveInt(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new UsageError(`${flag} wants a whole number ≥ 1, got ${JSON.stringify(value)}`);
  }
  return n;
}

function describeFilter(options: Record<string, unknown>): string {
  const parts = ["since", "level", "event", "server", "session", "grep"]
    .filter((name) => typeof options[name] === "string")
    .map((name) => `--${name} ${options[name]}`);
  return parts.length ? ` matching ${parts.join(" ")}` : "";
}

/**
 * Prints records as they are indexed until SIGINT or SIGTERM, or until
 * stdout's reader is gone (`mcpx log -f | head`): ingest, print what is new,
 * wait, again.
 */
async function follow(
  db: DatabaseSync,
  dir: string,
  query: RecordQuery,
  lastSeq: number,
  print: (record: LogRecord) => void,
  stdoutGone?: AbortSignal,
): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  stdoutGone?.addEventListener("abort", onSignal, { once: true });
  if (stdoutGone?.aborted) stop.abort();
  try {
    let after = lastSeq;
    while (!stop.signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, FOLLOW_MS);
        stop.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      });
      if (stop.signal.aborted) break;
      ingest(db, dir);
      const found = findRecords(db, { ...query, afterSeq: after });
      for (const { record } of found.records) print(record);
      after = found.lastSeq;
    }
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
    stdoutGone?.removeEventListener("abort", onSignal);
  }
}

/** `--chain [<id>]`. */
function chain(
  ctx: CliContext,
  dir: string,
  id: string | undefined,
  options: Record<string, unknown>,
  json: boolean,
): number {
  const { db } = openIngested(dir);
  try {
    if (!id) {
      const calls = recentCalls(db, positiveInt(options.limit, "--limit") ?? 20);
      if (json) {
        printJson(ctx.io, { calls });
      } else if (calls.length === 0) {
        ctx.io.err(`No calls recorded yet in ${dir}.\n`);
      } else {
        ctx.io.out(renderTable(
          ["TIME", "CALL", "TOOL", "MS", "OK"],
          calls.map((c) => [
            localTime(c.time),
            c.call,
            `${c.server}.${c.tool}`,
            String(c.ms),
            c.ok ? "ok" : "error",
          ]),
        ));
        ctx.io.err("(`mcpx log --chain <call>` shows one call and what led to it)\n");
      }
      return 0;
    }
    const entries = chainOf(db, id);
    if (entries.length === 0) {
      throw new NotFoundError(
        `no record or span has the id "${id}"; \`mcpx log --chain\` lists recent calls`,
      );
    }
    if (json) {
      printJson(ctx.io, { chain: entries });
    } else {
      for (const { depth, record } of entries) {
        ctx.io.out(`${"  ".repeat(depth)}${renderRecord(record)}  [${record.span}]\n`);
      }
    }
    return 0;
  } finally {
    db.close();
  }
}

/** `mcpx log sql`. */
async function sql(
  ctx: CliContext,
  dir: string,
  args: string[],
  options: Record<string, unknown>,
  json: boolean,
): Promise<number> {
  const path = indexPath(dir);
  if (options.path) {
    ctx.io.out(json ? JSON.stringify({ path }) + "\n" : `${path}\n`);
    return 0;
  }
  if (!options.schema && (args.length !== 1 || isBlankSql(args[0]))) {
    throw new UsageError(
      args.length > 1
        ? `one query is expected, got ${args.length} words; quote the query as one word`
        : "give a query: `mcpx log sql 'SELECT event, count(*) FROM records GROUP BY event'` (`--schema` shows the tables)",
    );
  }
  openIngested(dir).db.close();
  if (options.schema) {
    const db = openIndexReadOnly(path);
    try {
      const rows = db.prepare(
        "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid",
      ).all();
      if (json) printJson(ctx.io, { schema: rows });
      else ctx.io.out(rows.map((r) => `${r.sql};`).join("\n\n") + "\n");
      return 0;
    } finally {
      db.close();
    }
  }
  // In a child process killed at log.sqlTimeout; read-only by the authorizer
  // and by the index being opened read-only (logs/sql_guard.ts).
  const timeoutMs = await ctx.settingBesideConfig("log.sqlTimeout");
  const maxBytes = await ctx.settingBesideConfig("log.sqlMaxBytes");
  const answer = await runSqlBounded(path, args[0], {
    timeoutMs: timeoutMs > 0 ? timeoutMs : Infinity,
    maxRows: await ctx.settingBesideConfig("log.sqlMaxRows"),
    maxBytes,
  });
  // The bound holds on what is printed, the indented document or the padded table (cli/log_sql_print.ts).
  const { text, stopped } = printedSqlAnswer(answer, { json, maxBytes });
  ctx.io.out(text);
  if (stopped) ctx.io.err(`note: ${stoppedNote(stopped)}\n`);
  return 0;
}

/** What a note says when a bound cut the answer short. */
function stoppedNote(stopped: SqlStop): string {
  const flag = settingFlagName(stopped.setting);
  if (stopped.limit === "rows") {
    return `stopped at ${stopped.rows} rows (${stopped.setting}); more rows match: narrow the ` +
      `query (WHERE, LIMIT) or raise the limit with ${flag} <n>`;
  }
  const what = stopped.limit === "printed" ? "what is printed" : "the rows read, as JSON,";
  return `stopped at ${stopped.rows} rows, before ${what} passed ${stopped.max} bytes ` +
    `(${stopped.setting}); select fewer or shorter columns, or raise the limit with ${flag} <bytes>`;
}
