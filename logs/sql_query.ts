/**
 * Runs one `mcpx log sql` statement on the index with a bound on what it
 * returns: at most `maxRows` rows and `maxBytes` of JSON, and no single value
 * longer than `maxBytes` (SQLite's own length limit, so a query cannot build
 * a gigabyte string before the first row comes back). The time bound is the
 * caller's: logs/sql_bounded.ts runs this in a child process it can kill.
 *
 * Source: issue 9, "Bounded, and not quadratic" (settings `log.sqlMaxRows`,
 * `log.sqlMaxBytes`).
 *
 * @module
 */

import type { DatabaseSync, StatementSync } from "node:sqlite";
import { prepareQuery } from "./sql_guard.ts";

/** The bounds of one statement. */
export interface SqlLimits {
  /** Rows returned at most (`log.sqlMaxRows`). */
  maxRows: number;
  /** Bytes of JSON returned at most, and of any one value (`log.sqlMaxBytes`). */
  maxBytes: number;
}

/** Where a statement's answer was cut, and the setting that cut it. */
export interface SqlStop {
  /**
   * What ran out: the row count, the size of the rows read (their compact
   * JSON), or the size of what is printed (the `--json` document or the
   * table, cli/logs/log_sql_print.ts).
   */
  limit: "rows" | "bytes" | "printed";
  /** The rows returned (the stop came before the next one). */
  rows: number;
  /** The setting that sets the bound, as errors and notes name it. */
  setting: "log.sqlMaxRows" | "log.sqlMaxBytes";
  /** The bound itself: rows, or bytes. */
  max: number;
}

/** A statement's answer. */
export interface SqlAnswer {
  columns: string[];
  /** Values as JSON has them: blobs as `<n bytes>`, big integers as numbers. */
  rows: unknown[][];
  /** Present when the answer was cut short. */
  stopped?: SqlStop;
}

/**
 * Prepares `sql` with the read-only guard (logs/sql_guard.ts) and runs it,
 * stopping at the first bound it reaches.
 *
 * @param db The index, open read-only.
 * @param sql One query.
 * @param limits The bounds.
 * @returns Columns, rows, and `stopped` when a bound cut the answer.
 * @throws {SqlRefusedError} for a statement that is not one read.
 * @throws {Error} SQLite's error for a statement that does not compile or
 *   fails while it runs (`string or blob too big` past `maxBytes`).
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { runQuery } from "./sql_query.ts";
 * const db = new DatabaseSync(":memory:");
 * const sql = "with recursive c(n) as (select 1 union all select n + 1 from c) select n from c";
 * const answer = runQuery(db, sql, { maxRows: 3, maxBytes: 1000 });
 * if (answer.rows.length !== 3 || answer.stopped?.setting !== "log.sqlMaxRows") throw new Error();
 * ```
 */
export function runQuery(db: DatabaseSync, sql: string, limits: SqlLimits): SqlAnswer {
  // SQLite's longest string or blob (missing from Deno 2.9's types).
  const bounds = (db as unknown as { limits: { length: number } }).limits;
  bounds.length = Math.max(1, Math.min(limits.maxBytes, bounds.length));
  const statement = prepareQuery(db, sql);
  const columns = statement.columns().map((c) => c.name);
  // node:sqlite's iterate() in Deno 2.9.6 ends quietly when a step fails (an
  // integer overflow, a value past the length bound), so rows are bounded in
  // SQL and read with all(), which reports the error.
  const bounded = withRowLimit(db, statement, columns.length, limits.maxRows + 1) ?? statement;
  // Rows as arrays, so two columns of one name both show (missing from Deno's types).
  (bounded as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const all = bounded.all() as unknown as unknown[][];
  const rows: unknown[][] = [];
  const encoder = new TextEncoder();
  let bytes = 2;
  let stopped: SqlStop | undefined;
  for (const raw of all) {
    if (rows.length === limits.maxRows) {
      stopped = {
        limit: "rows",
        rows: rows.length,
        setting: "log.sqlMaxRows",
        max: limits.maxRows,
      };
      break;
    }
    const row = raw.map(plain);
    bytes += encoder.encode(JSON.stringify(row)).length + 1;
    if (bytes > limits.maxBytes) {
      stopped = {
        limit: "bytes",
        rows: rows.length,
        setting: "log.sqlMaxBytes",
        max: limits.maxBytes,
      };
      break;
    }
    rows.push(row);
  }
  return { columns, rows, ...(stopped ? { stopped } : {}) };
}

/**
 * `statement` as a subquery under `LIMIT n`, or undefined when it cannot be
 * one (a pragma, `EXPLAIN`): those answer with a few rows per table or
 * instruction, never a number the data decides.
 */
function withRowLimit(
  db: DatabaseSync,
  statement: StatementSync,
  columns: number,
  n: number,
): StatementSync | undefined {
  // Newlines keep a trailing `-- comment` from swallowing the parenthesis.
  const body = statement.sourceSQL.trimEnd().replace(/;$/, "");
  try {
    const bounded = db.prepare(`SELECT * FROM (\n${body}\n) LIMIT ${n}`);
    return bounded.columns().length === columns ? bounded : undefined;
  } catch {
    return undefined;
  }
}

/** A value as JSON can carry it. */
function plain(value: unknown): unknown {
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (typeof value === "bigint") return Number(value);
  return value ?? null;
}
