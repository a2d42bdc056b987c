/**
 * The child process of `mcpx log sql`: reads one request as JSON on stdin
 * (`{ path, sql, maxRows, maxBytes }`), runs the statement on the index
 * opened read-only (logs/sql_query.ts), and writes one answer as JSON on
 * stdout: `{ ok: true, answer }` or `{ ok: false, error: { code, message,
 * errcode? } }` (`errcode`: SQLite's result code, when SQLite raised it, so
 * the parent can tell a damaged index from a bad statement).
 * It exists so the statement can be killed at `log.sqlTimeout`: node:sqlite
 * cannot interrupt a running statement, and a Worker cannot be terminated
 * while SQLite holds its thread (logs/sql_bounded.ts starts it).
 *
 * @module
 */

import { openIndexReadOnly } from "./index_db.ts";
import { runQuery } from "./sql_query.ts";
import { McpxError } from "../core/errors.ts";

/** A failure as the child reports it. */
export interface SqlChildFailure {
  /** The error's code (`sql`, `sql-too-big`, `read-only`, …). */
  code: string;
  message: string;
  /** SQLite's result code (node:sqlite `errcode`), when SQLite raised the error. */
  errcode?: number;
}

/** What the parent sends. */
export interface SqlChildRequest {
  /** The index file. */
  path: string;
  sql: string;
  maxRows: number;
  maxBytes: number;
}

async function main(): Promise<void> {
  let answer: unknown;
  let request: SqlChildRequest | undefined;
  try {
    request = JSON.parse(await new Response(Deno.stdin.readable).text()) as SqlChildRequest;
    const db = openIndexReadOnly(request.path);
    try {
      answer = { ok: true, answer: runQuery(db, request.sql, request) };
    } finally {
      db.close();
    }
  } catch (error) {
    answer = { ok: false, error: childError(error, request) };
  }
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(answer)));
}

/** SQLite's result code for a string or blob longer than its length limit. */
const SQLITE_TOOBIG = 18;

/** A failure as the parent rebuilds it: `code`, `message`, and SQLite's `errcode`. */
function childError(
  error: unknown,
  request: SqlChildRequest | undefined,
): SqlChildFailure {
  if (error instanceof McpxError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  if (errcode === SQLITE_TOOBIG && request) {
    return {
      code: "sql-too-big",
      message: `a value the statement builds is longer than log.sqlMaxBytes (${request.maxBytes} ` +
        `bytes), so it was stopped; return a shorter value (substr()) or raise the limit with ` +
        `--log-sql-max-bytes <bytes>`,
    };
  }
  return {
    code: "sql",
    message: `sql: ${message} (\`mcpx log sql --schema\` shows the tables)`,
    // A damaged index (SQLITE_CORRUPT, SQLITE_NOTADB) is rebuilt by the
    // parent's caller (logs/ingest.ts rebuildWhenDamaged), which reads this.
    ...(typeof errcode === "number" ? { errcode } : {}),
  };
}

if (import.meta.main) await main();
