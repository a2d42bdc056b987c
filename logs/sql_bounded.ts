/**
 * `mcpx log sql`'s statement, run in a child process (logs/sql_child.ts) that
 * is killed when it outlives `log.sqlTimeout`. node:sqlite has no way to
 * interrupt a running statement, and a Worker whose thread is inside SQLite
 * is not stopped by `terminate()` (measured with Deno 2.9.6: the process then
 * cannot exit until the statement ends, which for a recursive CTE is never).
 * The child may read the index file and nothing else.
 *
 * Source: issue 9, "Bounded, and not quadratic"; spec 000, "Reading the log".
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { McpxError, TimeoutError } from "../core/errors.ts";
import { ROOT_URL } from "../core/root.ts";
import type { SqlAnswer, SqlLimits } from "./sql_query.ts";
import type { SqlChildFailure, SqlChildRequest } from "./sql_child.ts";

/**
 * A failure the child reported, as an error: `code` as the child gave it and,
 * when SQLite raised it, SQLite's result code as `errcode` (the field
 * node:sqlite errors carry), so logs/index_db.ts `isDamagedIndex` recognises a
 * damaged index found by the statement and the index is rebuilt.
 */
export class SqlChildError extends McpxError {
  /** SQLite's result code, or undefined when SQLite did not raise the error. */
  readonly errcode?: number;
  constructor(failure: SqlChildFailure) {
    super(failure.code, failure.message);
    this.name = "SqlChildError";
    if (typeof failure.errcode === "number") this.errcode = failure.errcode;
  }
}

/** The bounds of one statement, the time included. */
export interface SqlBounds extends SqlLimits {
  /** The statement is killed after this long (`log.sqlTimeout`), ms. */
  timeoutMs: number;
}

/**
 * Runs one read-only statement on the index at `path` within `bounds`.
 *
 * @param path The index file (`index.db`).
 * @param sql One query.
 * @param bounds Time (ms), rows and bytes.
 * @param options.signal Aborting kills the child and rejects with the reason.
 * @returns The answer; `stopped` says which bound cut it short.
 * @throws {TimeoutError} `setting: "log.sqlTimeout"` when the statement ran
 *   longer than `timeoutMs` (the child is killed).
 * @throws {SqlChildError} `read-only` / `sql-statements` for a refused
 *   statement (logs/sql_guard.ts), `sql` for SQLite's own error (with its
 *   `errcode`: 11 or 26 for a damaged index).
 * @throws {McpxError} `sql-child` when the child could not run.
 */
export async function runSqlBounded(
  path: string,
  sql: string,
  bounds: SqlBounds,
  options: { signal?: AbortSignal } = {},
): Promise<SqlAnswer> {
  options.signal?.throwIfAborted();
  const args = [
    "run",
    "--quiet",
    "--no-prompt",
    `--allow-read=${path}`,
    // A safety net under the row and size bounds: rows of huge values fail the
    // child rather than fill the machine's memory.
    `--v8-flags=--max-old-space-size=${heapLimitMb(bounds.maxBytes)}`,
  ];
  const config = new URL("deno.json", ROOT_URL);
  if (config.protocol === "file:") args.push("--config", fileURLToPath(config));
  const childModule = new URL("logs/sql_child.ts", ROOT_URL);
  args.push(childModule.protocol === "file:" ? fileURLToPath(childModule) : childModule.href);
  const child = new Deno.Command(Deno.execPath(), {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, bounds.timeoutMs);
  options.signal?.addEventListener("abort", kill, { once: true });
  try {
    const request: SqlChildRequest = {
      path,
      sql,
      maxRows: bounds.maxRows,
      maxBytes: bounds.maxBytes,
    };
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify(request)));
    await writer.close().catch(() => {});
    const out = await child.output();
    options.signal?.throwIfAborted();
    if (timedOut) {
      throw new TimeoutError(
        `the statement ran longer than log.sqlTimeout (${bounds.timeoutMs} ms) and was stopped; ` +
          `narrow it with WHERE or LIMIT, or allow longer with --log-sql-timeout <duration>`,
        bounds.timeoutMs,
        { setting: "log.sqlTimeout" },
      );
    }
    const text = new TextDecoder().decode(out.stdout);
    let reply: { ok: true; answer: SqlAnswer } | { ok: false; error: SqlChildFailure };
    try {
      reply = JSON.parse(text);
    } catch {
      const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
      // V8's fatal errors (out of memory) are the lines after `# `; else the last lines.
      const fatal = lines.find((l) => l.startsWith("# "))?.slice(2);
      const stderr = fatal ?? lines.slice(-3).join("\n");
      throw new McpxError(
        "sql-child",
        `the process running the statement ended without an answer (exit ${out.code}${
          out.signal ? `, ${out.signal}` : ""
        })${stderr ? `: ${stderr}` : ""}; its memory is capped at ${
          heapLimitMb(bounds.maxBytes)
        } MB, so fewer or shorter values may fit`,
      );
    }
    if (reply.ok) return reply.answer;
    throw new SqlChildError(reply.error);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", kill);
  }
}

/** The child's JavaScript heap limit, MB: 256 plus sixteen answers of `maxBytes`. */
function heapLimitMb(maxBytes: number): number {
  return 256 + Math.ceil((16 * maxBytes) / 1048576);
}
