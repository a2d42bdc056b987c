/**
 * Opening an SQLite database mcpx keeps in its private state directory
 * (`node:sqlite`): the file is created 0600 before SQLite opens it, and an
 * existing one is narrowed to 0600, so another local user can read none of
 * it (spec 000, "can nobody else get in"; the state directory's rule is
 * core/private_fs.ts). SQLite gives its journal the database file's mode, so
 * the journal is private too.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { PRIVATE_FILE_MODE } from "./private_fs.ts";
import { moveDamagedAside, type MovedAside } from "./damaged_json.ts";

/**
 * Opens (creating) the database at `path`, private to this user.
 *
 * @param path The database file, inside a private directory.
 * @param timeoutMs How long SQLite waits on another connection's lock, ms.
 * @returns The open database; close it when done.
 * @throws Deno's error when the file cannot be created or narrowed, or SQLite's when it cannot open it.
 * @example
 * ```ts
 * import { openPrivateDatabase } from "./private_sqlite.ts";
 * const dir = Deno.makeTempDirSync();
 * const db = openPrivateDatabase(`${dir}/x.db`, 1000);
 * db.close();
 * if ((Deno.statSync(`${dir}/x.db`).mode! & 0o777) !== 0o600) throw new Error();
 * ```
 */
export function openPrivateDatabase(path: string, timeoutMs: number): DatabaseSync {
  Deno.openSync(path, { create: true, write: true, mode: PRIVATE_FILE_MODE }).close();
  // A file an older mcpx (or another umask) made readable to others is narrowed, not kept.
  if ((Deno.statSync(path).mode! & 0o777) !== PRIVATE_FILE_MODE) {
    Deno.chmodSync(path, PRIVATE_FILE_MODE);
  }
  return new DatabaseSync(path, { timeout: timeoutMs });
}

/** SQLite's primary result codes that say a file is damaged: SQLITE_CORRUPT, SQLITE_NOTADB. */
const DAMAGED_CODES: ReadonlySet<number> = new Set([11, 26]);

/**
 * True when SQLite says a database file is damaged or not a database
 * (`database disk image is malformed`, `file is not a database`), read from
 * the error's `errcode` (node:sqlite; extended codes carry the primary one in
 * their low byte), whichever statement found it: opening, preparing or a query.
 */
export function isDamagedDatabase(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === "number" && DAMAGED_CODES.has(code & 0xff);
}

/** What a state database is, for the warning when it is found damaged (core/damaged_json.ts). */
export interface DatabaseFacts {
  /** A few words: `the questions store`. */
  what: string;
  /** What is lost when it starts again empty, and what to do: a clause. */
  lost: string;
}

/**
 * Opens (creating) a private state database and prepares it (its schema), or,
 * when SQLite finds it damaged doing so (or `PRAGMA quick_check` does, with
 * `check`), moves it aside and starts it again empty: the one rule for a
 * damaged state file (decision 0019; core/damaged_json.ts `moveDamagedAside`
 * names the copy and queues the warning).
 *
 * @param path The database file, inside a private directory.
 * @param timeoutMs How long SQLite waits on another connection's lock, ms.
 * @param prepare Runs the schema statements on the open database.
 * @param facts What the file is and what a new empty one loses.
 * @param options.check Run `PRAGMA quick_check` first (for small files: it reads every page).
 * @param options.columns The columns each table must have once `prepare` has run (a table may
 *   have more: a later mcpx's). A file SQLite reads well whose tables lack them is not a store
 *   this mcpx wrote (another program's file, or one cut short), so it is damaged too: otherwise
 *   every statement on it fails.
 * @returns The open database, and what was moved aside when it was damaged.
 * @throws Deno's or SQLite's error for anything but damage (a full disk, permissions).
 */
export function openPrivateDatabaseOrSetAside(
  path: string,
  timeoutMs: number,
  prepare: (db: DatabaseSync) => void,
  facts: DatabaseFacts,
  options: { check?: boolean; columns?: Record<string, string[]> } = {},
): { db: DatabaseSync; movedAside?: MovedAside } {
  const open = () => {
    const db = openPrivateDatabase(path, timeoutMs);
    try {
      if (options.check) {
        const row = db.prepare("PRAGMA quick_check").get() as Record<string, unknown> | undefined;
        const verdict = row ? String(Object.values(row)[0]) : "";
        if (verdict !== "ok") throw new DamagedDatabaseError(`quick_check: ${verdict}`);
      }
      prepare(db);
      const lacking = lackingColumns(db, options.columns ?? {});
      if (lacking) throw new DamagedDatabaseError(lacking);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  };
  try {
    return { db: open() };
  } catch (error) {
    if (!isDamagedDatabase(error)) throw error;
    const movedAside = moveDamagedAside({ path, why: (error as Error).message, ...facts });
    return { db: open(), ...(movedAside ? { movedAside } : {}) };
  }
}

/** Which table lacks which of `columns` in `db`, as a sentence; undefined when none does. */
function lackingColumns(db: DatabaseSync, columns: Record<string, string[]>): string | undefined {
  for (const [table, wanted] of Object.entries(columns)) {
    const rows = db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[];
    const have = new Set(rows.map((c) => c.name));
    const lacking = wanted.filter((column) => !have.has(column));
    if (lacking.length) {
      return `table ${table} lacks ${lacking.join(", ")}: not a store this mcpx wrote`;
    }
  }
  return undefined;
}

/**
 * Why the state database at `path` would be moved aside by
 * {@link openPrivateDatabaseOrSetAside} (`PRAGMA quick_check`, and the
 * `columns` its tables must have), read-only, repairing nothing: for
 * `mcpx doctor`. Undefined when it reads clean.
 *
 * @throws Deno's or SQLite's error for anything but damage (permissions).
 */
export function databaseDamage(
  path: string,
  columns: Record<string, string[]> = {},
): string | undefined {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true, timeout: 5_000 });
    const row = db.prepare("PRAGMA quick_check").get() as Record<string, unknown> | undefined;
    const verdict = row ? String(Object.values(row)[0]) : "";
    if (verdict !== "ok") return `quick_check: ${verdict}`;
    return lackingColumns(db, columns);
  } catch (error) {
    if (isDamagedDatabase(error)) return (error as Error).message;
    throw error;
  } finally {
    db?.close();
  }
}

/**
 * `PRAGMA quick_check` found damage SQLite did not raise as an error, or the
 * tables lack the store's columns: reads as SQLITE_CORRUPT.
 */
class DamagedDatabaseError extends Error {
  readonly errcode = 11;
  constructor(verdict: string) {
    super(verdict);
    this.name = "DamagedDatabaseError";
  }
}
