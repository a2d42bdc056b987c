/**
 * Brings index.db up to date with the log files, incrementally: a file whose
 * size and modification time did not change since the last read is not
 * opened; a file that grew is read from where the last read stopped; a file
 * that is gone takes its rows with it; a file that shrank is read again.
 * Only complete lines are indexed: a torn last line (a writer in the middle
 * of it, or one killed there) is left for the next read, never indexed half
 * (spec 000, "Reading the log": ingest before answering).
 *
 * An ingest that finds something new is one transaction (`BEGIN IMMEDIATE`),
 * and what was read of each file is looked up again inside it, so two
 * processes ingesting at once wait for each other and never index a line
 * twice. One that finds nothing new takes no lock.
 *
 * @module
 */

import type { DatabaseSync, StatementSync } from "node:sqlite";
import { join } from "../core/posix_path.ts";
import { LEVEL_RANK } from "./record.ts";
import {
  BULK_INDEXES,
  execute,
  indexPath,
  isDamagedIndex,
  openIndex,
  setAsideDamagedIndex,
  SQLITE_FULL,
} from "./index_db.ts";
import { StorageError, storageErrorOf } from "../core/errors.ts";
import { errorTemplate } from "./error_template.ts";
import { listLogFiles, LOG_DIR_WHAT } from "./writer.ts";
import { epochMs, recordFields } from "./_record_line.ts";
import { ensurePrivateDir } from "../core/private_fs.ts";

/** What one ingest did. */
export interface IngestResult {
  /** Log files present. */
  files: number;
  /** Files opened because they are new or changed. */
  opened: number;
  /** Records added. */
  records: number;
  /** Complete lines that were not records (not JSON, or missing fields), skipped. */
  malformed: number;
  /** Files gone since the last ingest, whose rows were removed. */
  removed: number;
}

const CHUNK = 4 << 20;
const NEWLINE = 0x0a;

interface FileRow {
  id: number;
  size: number;
  mtime_ms: number;
  offset: number;
}

/**
 * Ingests every new complete line of the `*.jsonl` files in `dir`.
 *
 * @param db The index, opened with logs/index_db.ts `openIndex`.
 * @param dir The logs directory.
 * @returns Counts of what was done.
 * @throws {Error} from SQLite (busy for longer than the timeout, disk full).
 */
export function ingest(db: DatabaseSync, dir: string): IngestResult {
  const result: IngestResult = { files: 0, opened: 0, records: 0, malformed: 0, removed: 0 };
  const onDisk = new Map<string, { size: number; mtime: number }>();
  for (const name of listLogFiles(dir)) {
    try {
      const stat = Deno.statSync(join(dir, name));
      onDisk.set(name, { size: stat.size, mtime: stat.mtime?.getTime() ?? 0 });
    } catch { /* removed meanwhile */ }
  }
  result.files = onDisk.size;

  const changed = (known: Map<string, FileRow>) =>
    [...known.keys()].some((name) => !onDisk.has(name)) ||
    [...onDisk].some(([name, stat]) => {
      const seen = known.get(name);
      return !seen || seen.size !== stat.size || seen.mtime_ms !== stat.mtime;
    });
  // Nothing new: answer without taking the write lock.
  if (!changed(knownFiles(db))) return result;

  const rows = new Inserter(db);
  transaction(db, rows, () => {
    // Look again inside the transaction: another process may have ingested meanwhile.
    const known = knownFiles(db);
    for (const [name, row] of known) {
      if (onDisk.has(name)) continue;
      db.prepare("DELETE FROM records WHERE file = ?").run(row.id);
      db.prepare("DELETE FROM files WHERE id = ?").run(row.id);
      result.removed++;
    }
    // From empty, build the unordered indexes once at the end instead of row by row.
    const cold = !db.prepare("SELECT 1 FROM records LIMIT 1").get();
    if (cold) dropIndexes(db);
    const before = lastSeq(db);
    const kept = ingestFiles(db, dir, onDisk, known, rows, result);
    if (cold) execute(db, ...BULK_INDEXES);
    // Rows gone (a removed or replaced file): count again; else add the new rows.
    const recount = result.removed > 0 || !kept;
    if (recount) execute(db, "DELETE FROM call_totals");
    addCallTotals(db, recount ? 0 : before);
  });
  if (result.removed > 0) shrink(db);
  return result;
}

/**
 * Gives the pages of removed files' rows back to the file system when they
 * are more than a quarter of the index: the log directory's budget counts
 * index.db's size on disk (logs/writer.ts `keepBudget`, decision 0063), and
 * SQLite only reuses free pages, never returns them. A `VACUUM` that fails
 * (a full disk, another reader) leaves a correct index, only a larger one.
 */
function shrink(db: DatabaseSync): void {
  try {
    const pages = Number(db.prepare("PRAGMA page_count").get()!.page_count);
    const free = Number(db.prepare("PRAGMA freelist_count").get()!.freelist_count);
    if (free * 4 > pages) execute(db, "VACUUM");
  } catch { /* kept as it is */ }
}

function lastSeq(db: DatabaseSync): number {
  return Number((db.prepare("SELECT coalesce(max(seq), 0) AS n FROM records").get())!.n);
}

/** Adds the calls of rows after `seq` to `call_totals`. */
function addCallTotals(db: DatabaseSync, seq: number): void {
  db.prepare(
    `INSERT INTO call_totals (server, tool, calls, errors, timed, max_ms)
     SELECT server, tool, count(*), coalesce(sum(ok = 0), 0), count(ms), max(ms)
     FROM records NOT INDEXED -- the new rows by rowid, not the whole calls index
     WHERE seq > ? AND event = 'call.end' AND server IS NOT NULL AND tool IS NOT NULL
     GROUP BY server, tool
     ON CONFLICT (server, tool) DO UPDATE SET
       calls = calls + excluded.calls, errors = errors + excluded.errors,
       timed = timed + excluded.timed,
       max_ms = CASE WHEN max_ms IS NULL OR excluded.max_ms > max_ms THEN excluded.max_ms
                ELSE max_ms END`,
  ).run(seq);
}

function knownFiles(db: DatabaseSync): Map<string, FileRow> {
  const known = new Map<string, FileRow>();
  for (const row of db.prepare("SELECT id, name, size, mtime_ms, offset FROM files").all()) {
    known.set(row.name as string, row as unknown as FileRow);
  }
  return known;
}

function ingestFiles(
  db: DatabaseSync,
  dir: string,
  onDisk: Map<string, { size: number; mtime: number }>,
  known: Map<string, FileRow>,
  rows: Inserter,
  result: IngestResult,
): boolean {
  let kept = true;
  for (const [name, stat] of onDisk) {
    let row = known.get(name);
    if (row && row.size === stat.size && row.mtime_ms === stat.mtime) continue;
    if (!row) {
      const id = db.prepare(
        "INSERT INTO files (name, size, mtime_ms, offset) VALUES (?, 0, 0, 0)",
      ).run(name).lastInsertRowid;
      row = { id: Number(id), size: 0, mtime_ms: 0, offset: 0 };
    } else if (stat.size < row.offset) {
      // Shorter than what was read: not the same file any more.
      db.prepare("DELETE FROM records WHERE file = ?").run(row.id);
      row.offset = 0;
      kept = false;
    }
    result.opened++;
    const file = row.id;
    const read = readFrom(join(dir, name), row.offset, (line) => {
      if (insertLine(rows, file, line)) result.records++;
      else result.malformed++;
    });
    rows.flush();
    db.prepare("UPDATE files SET size = ?, mtime_ms = ?, offset = ? WHERE id = ?").run(
      row.offset + read.seen,
      stat.mtime,
      row.offset + read.consumed,
      row.id,
    );
  }
  return kept;
}

function dropIndexes(db: DatabaseSync): void {
  for (const statement of BULK_INDEXES) {
    const name = statement.match(/EXISTS (\w+)/)![1];
    execute(db, `DROP INDEX IF EXISTS ${name}`);
  }
}

function transaction(db: DatabaseSync, rows: Inserter | undefined, body: () => void): void {
  execute(db, "BEGIN IMMEDIATE");
  try {
    body();
    execute(db, "COMMIT");
  } catch (error) {
    // SQLite has already rolled back after some errors (a full disk): the error is the news.
    if (db.isTransaction) execute(db, "ROLLBACK");
    rows?.reset();
    throw error;
  }
}

/**
 * Calls `onLine` for each complete line from `offset` to the end of the file.
 *
 * @returns `consumed`: bytes up to the end of the last complete line; `seen`:
 *   bytes read in all (a torn tail included). Both count from `offset`.
 */
function readFrom(
  path: string,
  offset: number,
  onLine: (line: string) => void,
): { consumed: number; seen: number } {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { consumed: 0, seen: 0 };
    throw error;
  }
  const decoder = new TextDecoder();
  let consumed = 0;
  let seen = 0;
  try {
    file.seekSync(offset, Deno.SeekMode.Start);
    let pending = new Uint8Array(0);
    const buffer = new Uint8Array(CHUNK);
    while (true) {
      const n = file.readSync(buffer);
      if (n === null || n === 0) break;
      seen += n;
      let bytes = buffer.subarray(0, n);
      if (pending.length) {
        const joined = new Uint8Array(pending.length + n);
        joined.set(pending);
        joined.set(bytes, pending.length);
        bytes = joined;
      }
      const end = bytes.lastIndexOf(NEWLINE);
      if (end < 0) {
        pending = bytes.slice();
        continue;
      }
      const text = decoder.decode(bytes.subarray(0, end));
      consumed += end + 1;
      pending = bytes.slice(end + 1);
      let start = 0;
      while (start <= text.length) {
        let stop = text.indexOf("\n", start);
        if (stop < 0) stop = text.length;
        if (stop > start) onLine(text.slice(start, stop));
        start = stop + 1;
      }
    }
  } finally {
    file.close();
  }
  return { consumed, seen };
}

const COLUMNS = "file, id, ts, level_rank, event, msg, template, span, parent, " +
  "server, tool, session, run, ms, ok, error_template, attrs";
const WIDTH = 17;
/** Rows per INSERT statement: one call into SQLite per batch instead of per row. */
const BATCH = 128;
const ROW = `(${Array(WIDTH).fill("?").join(", ")})`;

/** Collects rows and inserts them `BATCH` at a time; gives each template its id. */
class Inserter {
  #db: DatabaseSync;
  #many?: StatementSync;
  #one?: StatementSync;
  #params: (string | number | null)[] = [];
  #templates?: Map<string, number>;
  #addTemplate?: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** The id of a template, stored on first sight. */
  template(text: string): number {
    if (!this.#templates) {
      this.#templates = new Map();
      for (const row of this.#db.prepare("SELECT id, text FROM templates").all()) {
        this.#templates.set(row.text as string, row.id as number);
      }
    }
    let id = this.#templates.get(text);
    if (id === undefined) {
      this.#addTemplate ??= this.#db.prepare("INSERT INTO templates (text) VALUES (?)");
      id = Number(this.#addTemplate.run(text).lastInsertRowid);
      this.#templates.set(text, id);
    }
    return id;
  }

  /** Forgets the cached ids (after a rolled-back transaction). */
  reset(): void {
    this.#templates = undefined;
    this.#params.length = 0;
  }

  /** The row being filled: push exactly `WIDTH` values, then call {@link added}. */
  readonly row: (string | number | null)[] = this.#params;

  /** Inserts a full batch once the last row completed it. */
  added(): void {
    if (this.#params.length === BATCH * WIDTH) {
      this.#many ??= this.#db.prepare(
        `INSERT INTO records (${COLUMNS}) VALUES ${Array(BATCH).fill(ROW).join(", ")}`,
      );
      this.#many.run(...this.#params);
      this.#params.length = 0;
    }
  }

  flush(): void {
    if (this.#params.length === 0) return;
    this.#one ??= this.#db.prepare(`INSERT INTO records (${COLUMNS}) VALUES ${ROW}`);
    for (let i = 0; i < this.#params.length; i += WIDTH) {
      this.#one.run(...this.#params.slice(i, i + WIDTH));
    }
    this.#params.length = 0;
  }
}

const RANK: Record<string, number> = LEVEL_RANK;

/**
 * Indexes one line; false when it is not a record. Lines as the writer writes
 * them (`{"time":…,"level":…,"event":…,"msg":…,"template":…,"id":…,"span":…,
 * ["parent":…,]"attrs":{…}}`) are read by position, parsing only `attrs` and
 * the two message strings; any other line is parsed whole.
 */
function insertLine(rows: Inserter, file: number, line: string): boolean {
  const r = recordFields(line);
  if (!r) return false;
  const ts = epochMs(r.time);
  if (Number.isNaN(ts)) return false;
  const a = r.attrs;
  const error = str(a.error);
  const template = rows.template(r.template);
  rows.row.push(
    file,
    r.id,
    ts,
    RANK[r.level] ?? 1,
    r.event,
    r.msg,
    template,
    r.span,
    r.parent,
    str(a.server),
    str(a.tool),
    str(a.session),
    str(a.run),
    num(a.ms),
    typeof a.ok === "boolean" ? (a.ok ? 1 : 0) : null,
    error === null ? null : errorTemplate(error),
    r.attrsText,
  );
  rows.added();
  return true;
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * Opens the index of a logs directory and brings it up to date: what
 * `mcpx log` and `mcpx stats` do before answering. An index SQLite finds
 * damaged (or not a database) while opening or ingesting is moved aside
 * and rebuilt from the files; one a later query finds damaged is rebuilt by
 * {@link readIndex}.
 *
 * @param dir The logs directory (created when missing).
 * @returns The open index (close it) and what the ingest did.
 * @throws {StorageError} naming the index (or the directory) and the fix when
 *   the disk is full (or the directory cannot be written).
 * @throws {UnsafeDirectoryError} when the directory is not the user's alone
 *   (core/private_fs.ts).
 * @throws {Error} from SQLite for anything else.
 */
export function openIngested(dir: string): { db: DatabaseSync; ingested: IngestResult } {
  const path = indexPath(dir);
  try {
    ensurePrivateDir(dir, LOG_DIR_WHAT);
    try {
      return openAndIngest(path, dir);
    } catch (error) {
      if (!isDamagedIndex(error)) throw error;
      setAsideDamagedIndex(path, error);
      return openAndIngest(path, dir);
    }
  } catch (error) {
    throw storageErrorOf(error, path) ?? storageErrorOfSqlite(error, path) ?? error;
  }
}

function openAndIngest(path: string, dir: string): { db: DatabaseSync; ingested: IngestResult } {
  const db = openIndex(path);
  try {
    return { db, ingested: ingest(db, dir) };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** SQLite's "database or disk is full" as a {@link StorageError} naming the index. */
function storageErrorOfSqlite(error: unknown, path: string): StorageError | undefined {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === "number" && (code & 0xff) === SQLITE_FULL
    ? new StorageError(path, "no-space", { cause: error })
    : undefined;
}

/**
 * Runs a command that reads the index of `dir` (`mcpx log`, `mcpx stats`);
 * when SQLite finds the index damaged in one of its queries (opening and
 * ingesting are covered by {@link openIngested} itself), the index is
 * moved aside and the command runs once more, ingesting into a new one from the
 * log files (spec 000, "Reading the log": the index is disposable;
 * docs/logs.md). Commands query before they print, so the second run prints
 * what the first did not; `mcpx log -f` may show its last records twice.
 *
 * @param dir The logs directory.
 * @param command The command; it opens (and closes) the index itself.
 * @returns What `command` returns.
 * @throws what `command` throws, other than a damaged index the first time.
 */
export async function rebuildWhenDamaged<T>(dir: string, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    if (!isDamagedIndex(error)) throw error;
    setAsideDamagedIndex(indexPath(dir), error);
  }
  return await command();
}
