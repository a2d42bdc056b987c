/**
 * What `mcpx log sql` lets a statement do: read the index, nothing else.
 * SQLite's authorizer vets every action of a statement while it is prepared,
 * so a refused statement never runs (no file is created by `VACUUM INTO`, no
 * pragma is answered with success); a statement is one statement, and it must
 * be a query.
 *
 * Allowed: `SELECT` (and `WITH … SELECT`, `EXPLAIN …`), reading any table or
 * view, calling functions, recursive CTEs, and the pragmas in
 * {@link READ_PRAGMAS}, which only describe the schema. Refused: every write,
 * `ATTACH` and `VACUUM INTO` (both open another file), transactions, every
 * other pragma, and statements that are not queries (`VACUUM`, `REINDEX`).
 *
 * Source: spec 000, "Reading the log" ("Anything that is not a read is
 * refused"); issue 9, "Bounded, and not quadratic".
 *
 * @module
 */

import { constants, type DatabaseSync, type StatementSync } from "node:sqlite";
import { McpxError } from "../core/errors.ts";

/**
 * node:sqlite's authorizer codes (SQLite's `SQLITE_SELECT`, `SQLITE_DENY`, …,
 * sqlite.org/c3ref/c_alter_table.html): present at run time, missing from
 * Deno 2.9's types.
 */
const C = constants as unknown as Record<string, number>;

/** The node:sqlite member Deno 2.9's types lack (present at run time). */
interface Authorizing {
  setAuthorizer(
    callback: (action: number, first: string | null, second: string | null) => number,
  ): void;
}

/**
 * Pragmas a statement may run: each only describes the schema or the build,
 * whatever its argument (a table or index name), and changes nothing.
 */
export const READ_PRAGMAS: readonly string[] = [
  "table_info",
  "table_xinfo",
  "table_list",
  "index_list",
  "index_info",
  "index_xinfo",
  "foreign_key_list",
  "database_list",
  "collation_list",
  "function_list",
  "module_list",
  "pragma_list",
  "compile_options",
];

/** Authorizer actions a query may take besides {@link READ_PRAGMAS}. */
const ALLOWED = new Set<number>([
  C.SQLITE_SELECT,
  C.SQLITE_READ,
  C.SQLITE_FUNCTION,
  C.SQLITE_RECURSIVE,
]);

/** Why a statement was refused before it ran: the authorizer's action and its names. */
export interface Refusal {
  /** SQLite's action code (`SQLITE_ATTACH`, `SQLITE_PRAGMA`, …: node:sqlite `constants`). */
  action: number;
  /** The action's first and second names (a file for ATTACH, a pragma and its value). */
  names: [string | null, string | null];
}

/**
 * A statement `mcpx log sql` refuses. `code` is `read-only` (it would write,
 * open another file or run a refused pragma) or `sql-statements` (more than
 * one statement); the message says what and what to do.
 */
export class SqlRefusedError extends McpxError {
  constructor(code: "read-only" | "sql-statements", message: string) {
    super(code, message);
    this.name = "SqlRefusedError";
  }
}

/**
 * Prepares exactly one query on `db`, with SQLite's authorizer refusing
 * anything that is not a read while it is prepared (nothing runs yet). The
 * authorizer stays installed on `db` afterwards.
 *
 * @param db An open database (the index, opened read-only).
 * @param sql The statement as the user typed it.
 * @returns The prepared statement.
 * @throws {SqlRefusedError} `read-only` naming what was refused, or
 *   `sql-statements` when text other than comments follows the first statement.
 * @throws {Error} SQLite's own error for a statement that does not compile
 *   (a syntax error, an unknown table).
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { prepareQuery } from "./sql_guard.ts";
 * const db = new DatabaseSync(":memory:");
 * if (prepareQuery(db, "select 1 as n").get()?.n !== 1) throw new Error();
 * try {
 *   prepareQuery(db, "select 1; select 2");
 *   throw new Error("not refused");
 * } catch (error) {
 *   if ((error as { code?: string }).code !== "sql-statements") throw error;
 * }
 * ```
 */
export function prepareQuery(db: DatabaseSync, sql: string): StatementSync {
  // node:sqlite in Deno 2.9.6 crashes (SIGSEGV) preparing a statement of comments only.
  if (isBlankSql(sql)) {
    throw new SqlRefusedError(
      "sql-statements",
      "the statement is empty; give a query such as " +
        "`mcpx log sql 'SELECT event, count(*) FROM records GROUP BY event'`",
    );
  }
  let refusal: Refusal | undefined;
  let query = false;
  (db as unknown as Authorizing).setAuthorizer((action, first, second) => {
    if (action === C.SQLITE_SELECT) query = true;
    if (ALLOWED.has(action)) return C.SQLITE_OK;
    if (action === C.SQLITE_PRAGMA && READ_PRAGMAS.includes(String(first).toLowerCase())) {
      query = true;
      return C.SQLITE_OK;
    }
    refusal ??= { action, names: [first, second] };
    return C.SQLITE_DENY;
  });
  let statement: StatementSync;
  try {
    statement = db.prepare(sql);
  } catch (error) {
    if (refusal) throw refusedError(refusal);
    throw error;
  }
  const first = statement.sourceSQL;
  const rest = sql.startsWith(first) ? afterComments(sql.slice(first.length)) : sql;
  if (rest !== "") {
    throw new SqlRefusedError(
      "sql-statements",
      `\`mcpx log sql\` runs one statement, and text follows the first one: ${
        JSON.stringify(clip(rest))
      }; run each statement with its own \`mcpx log sql\``,
    );
  }
  if (!query) {
    throw new SqlRefusedError(
      "read-only",
      `\`mcpx log sql\` only reads: ${
        JSON.stringify(clip(afterComments(first)))
      } is not a query, and nothing was run; write a SELECT (\`mcpx log sql --schema\` shows the tables)`,
    );
  }
  return statement;
}

/**
 * True when `sql` holds nothing but whitespace, `;` and comments.
 *
 * @example
 * ```ts
 * import { isBlankSql } from "./sql_guard.ts";
 * if (!isBlankSql(" -- nothing\n ; /* here *\/ ") || isBlankSql("select 1")) throw new Error();
 * ```
 */
export function isBlankSql(sql: string): boolean {
  return afterComments(sql) === "";
}

/** The error for a statement the authorizer refused. */
function refusedError(refusal: Refusal): SqlRefusedError {
  return new SqlRefusedError("read-only", `\`mcpx log sql\` only reads: ${refusedWhat(refusal)}`);
}

/** What was refused, as a clause. */
function refusedWhat({ action, names: [first, second] }: Refusal): string {
  // CREATE, DROP and ALTER first write the schema table, and are refused there.
  if (
    /^sqlite_(temp_)?(master|schema)$/.test(first ?? "") &&
    [C.SQLITE_INSERT, C.SQLITE_UPDATE, C.SQLITE_DELETE].includes(action)
  ) {
    return "CREATE, DROP and ALTER would change the schema, and are refused";
  }
  switch (action) {
    case C.SQLITE_ATTACH:
      return `opening another database file (${JSON.stringify(first ?? "")}) is refused: ` +
        "ATTACH and VACUUM INTO would open or write it, and no file was created";
    case C.SQLITE_DETACH:
      return "DETACH is refused";
    case C.SQLITE_PRAGMA:
      return `pragma ${first}${second === null ? "" : ` = ${second}`} is refused, and nothing ` +
        `was changed; the pragmas that describe the schema run: ${READ_PRAGMAS.join(", ")}`;
    case C.SQLITE_INSERT:
      return `INSERT into ${first} would write, and is refused`;
    case C.SQLITE_TRANSACTION:
    case C.SQLITE_SAVEPOINT:
      return "transactions are refused";
    default:
      return `${ACTION_NAMES.get(action) ?? `action ${action}`}${
        first ? ` ${first}` : ""
      } would write, and is refused`;
  }
}

/** The authorizer's write actions by code, named as SQL says them. */
const ACTION_NAMES = new Map<number, string>(
  Object.entries(C)
    .filter(([name]) =>
      /^SQLITE_(CREATE|DROP|INSERT|UPDATE|DELETE|ALTER|REINDEX|ANALYZE)/.test(name)
    )
    .map(([name, code]) => [code, name.slice("SQLITE_".length).replaceAll("_", " ")]),
);

/**
 * `text` without the whitespace, `;`, `-- …` and `/* … *\/` at its start:
 * empty when nothing but those is left.
 */
function afterComments(text: string): string {
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ";" || /\s/.test(c)) i++;
    else if (text.startsWith("--", i)) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end + 1;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else break;
  }
  return text.slice(i);
}

/** The first line of `text`, at most 60 characters. */
function clip(text: string): string {
  const line = text.split("\n")[0].trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
