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
 * The handler answers each as a document (decision 0064) but `-f`, whose
 * output is a stream it writes itself until stopped: it ends `exited(0)`.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import type { CliContext } from "../context.ts";
import { renderTable } from "../table.ts";
import { NotFoundError, UsageError } from "../../core/errors.ts";
import { ingest, openIngested, rebuildWhenDamaged } from "../../logs/ingest.ts";
import { indexPath, openIndexReadOnly } from "../../logs/index_db.ts";
import { runSqlBounded } from "../../logs/sql_bounded.ts";
import { printedSqlAnswer, sqlTable } from "./log_sql_print.ts";
import { isBlankSql } from "../../logs/sql_guard.ts";
import type { SqlStop } from "../../logs/sql_query.ts";
import { settingFlagName } from "../../config/settings.ts";
import { chainOf, findRecords, recentCalls, type RecordQuery } from "../../logs/query.ts";
import { encodeRecord, type Level, LEVEL_RANK, type LogRecord } from "../../logs/record.ts";
import { localTime, renderRecord } from "../../logs/render.ts";
import { parseSince } from "../../logs/since.ts";
import type { InputOf } from "../../ops/op.ts";
import type { log } from "../../ops/log_ops.ts";
import type { Text, TextView } from "../commands.ts";
import { type Answered, exited, ok, type Outcome } from "../../ops/outcome.ts";
import type { ChainEntry } from "../../logs/query.ts";
import type { SqlAnswer } from "../../logs/sql_query.ts";

/**
 * What `mcpx log` answers: `{ records }`, `{ calls }` (recent calls, `--chain`
 * without an id), `{ chain }`, or for `log sql` `{ path }`, `{ schema }` or
 * the statement's `{ columns, rows, stopped? }`.
 */
export type LogOutput =
  | { records: LogRecord[] }
  | { calls: ReturnType<typeof recentCalls> }
  | { chain: ChainEntry[] }
  | { path: string }
  | { schema: Record<string, unknown>[] }
  | SqlAnswer;

/** What only the terminal shows: the log folder and the filters, for "nothing found". */
interface LogExtra {
  dir: string;
  filter?: string;
}

/** Records printed when `--limit` is not given. */
const DEFAULT_LIMIT = 100;
/** How often `-f` looks for new records, in ms. */
const FOLLOW_MS = 200;

/**
 * Answers `mcpx log`.
 *
 * @returns The records, the recent calls, a chain or a `log sql` answer;
 *   `exited(0)` once `-f` has streamed until SIGINT, SIGTERM or stdout's reader left.
 * @throws {UsageError} For a bad filter or word; {NotFoundError} for a chain id no record has.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof log>,
): Promise<Outcome> {
  const { args: positionals } = input;
  const options: Record<string, unknown> = { ...input, session: ctx.sessionFlag };
  // A query that finds index.db damaged: rebuilt from the log files, asked again.
  return await rebuildWhenDamaged(await ctx.logsDir(), () => answer(ctx, positionals, options));
}

async function answer(
  ctx: CliContext,
  positionals: string[],
  options: Record<string, unknown>,
): Promise<Outcome> {
  const dir = await ctx.logsDir();
  if (positionals[0] === "sql") return await sql(ctx, dir, positionals.slice(1), options);
  if (options.schema || options.path) {
    throw new UsageError("--schema and --path belong to `mcpx log sql`");
  }
  if (options.chain) {
    if (positionals.length > 1) {
      throw new UsageError(`--chain takes one id, got ${positionals.length}`);
    }
    return chain(dir, positionals[0], options);
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
      const extra: LogExtra = { dir, filter: describeFilter(options) };
      return { kind: "ok", value: { records: records.map((r) => r.record) }, extra };
    }
    // The stream: printed here as records arrive, one JSON line each under --json.
    const json = options.json === true || await ctx.json().catch(() => false);
    const print = (record: LogRecord) =>
      ctx.io.out(json ? encodeRecord(record) : renderRecord(record) + "\n");
    for (const { record } of records) print(record);
    await follow(db, dir, { ...query, limit: undefined }, lastSeq, print, ctx.io.stdoutGone);
    return exited(0);
  } finally {
    db.close();
  }
}

/** `--json` prints `mcpx log sql --path`'s `{ "path" }` on one line; the rest indented. */
export function jsonLine(input: InputOf<typeof log>): boolean {
  return input.args[0] === "sql" && Boolean(input.path);
}

/** The terminal's rendering of each answer; "nothing found" goes to stderr. */
export function text(value: LogOutput, view: TextView): Text {
  const { dir, filter = "" } = (view.extra ?? {}) as Partial<LogExtra>;
  if ("records" in value) {
    if (value.records.length === 0) return { err: `No records${filter} in ${dir}.\n` };
    return value.records.map((record) => renderRecord(record) + "\n").join("");
  }
  if ("calls" in value) {
    if (value.calls.length === 0) return { err: `No calls recorded yet in ${dir}.\n` };
    return {
      out: renderTable(
        ["TIME", "CALL", "TOOL", "MS", "OK"],
        value.calls.map((c) => [
          localTime(c.time),
          c.call,
          `${c.server}.${c.tool}`,
          String(c.ms),
          c.ok ? "ok" : "error",
        ]),
      ),
      err: "(`mcpx log --chain <call>` shows one call and what led to it)\n",
    };
  }
  if ("chain" in value) {
    return value.chain.map(({ depth, record }) =>
      `${"  ".repeat(depth)}${renderRecord(record)}  [${record.span}]\n`
    ).join("");
  }
  if ("path" in value) return `${value.path}\n`;
  if ("schema" in value) return value.schema.map((r) => `${r.sql};`).join("\n\n") + "\n";
  return sqlTable(value.columns, value.rows);
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

/** `--chain [<id>]`: recent calls without an id, else the chain that led to it. */
function chain(
  dir: string,
  id: string | undefined,
  options: Record<string, unknown>,
): Answered<LogOutput> {
  const { db } = openIngested(dir);
  try {
    if (!id) {
      const calls = recentCalls(db, positiveInt(options.limit, "--limit") ?? 20);
      const extra: LogExtra = { dir };
      return { kind: "ok", value: { calls }, extra };
    }
    const entries = chainOf(db, id);
    if (entries.length === 0) {
      throw new NotFoundError(
        `no record or span has the id "${id}"; \`mcpx log --chain\` lists recent calls`,
      );
    }
    return ok({ chain: entries });
  } finally {
    db.close();
  }
}

/**
 * `mcpx log sql`: the index's path, its schema, or a statement's answer. The
 * answer is held to `log.sqlMaxBytes` as it is printed, and the indented
 * `--json` document and the padded table fit different rows (cli/logs/log_sql_print.ts),
 * so this reads the output mode to know which rows the document holds.
 */
async function sql(
  ctx: CliContext,
  dir: string,
  args: string[],
  options: Record<string, unknown>,
): Promise<Answered<LogOutput>> {
  const path = indexPath(dir);
  if (options.path) return ok({ path });
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
      return ok({ schema: rows });
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
  // The bound holds on what is printed, the indented document or the padded table (cli/logs/log_sql_print.ts).
  const json = options.json === true || await ctx.json().catch(() => false);
  const { rows, stopped } = printedSqlAnswer(answer, { json, maxBytes });
  return ok(
    { columns: answer.columns, rows, ...(stopped ? { stopped } : {}) },
    stopped ? [stoppedNote(stopped)] : [],
  );
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
