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
