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
import { join } from "../config/posix_path.ts";
import { LEVEL_RANK } from "./record.ts";
import { BULK_INDEXES, indexPath, openIndex } from "./index_db.ts";
import { errorTemplate } from "./error_template.ts";
import { listLogFiles, LOG_DIR_WHAT } from "./writer.ts";
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
    if (cold) { for (const statement of BULK_INDEXES) db.exec(statement); }
    // Rows gone (a removed or replaced file): count again; else add the new rows.
    const recount = result.removed > 0 || !kept;
    if (recount) db.exec("DELETE FROM call_totals");
    addCallTotals(db, recount ? 0 : before);
  });
  return result;
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
    db.exec(`DROP INDEX IF EXISTS ${name}`);
  }
}

function transaction(db: DatabaseSync, rows: Inserter | undefined, body: () => void): void {
  db.exec("BEGIN IMMEDIATE");
  try {
    body();
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
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
  const r = byPosition(line) ?? byParsing(line);
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

let hourKey = "";
let hourMs = 0;

/**
 * Milliseconds since the epoch of an ISO 8601 time. The writer's form
 * (`2026-10-01T12:34:56.789Z`) is read by position, the hour cached (records
 * come in time order); any other form goes to `Date.parse`.
 */
function epochMs(time: string): number {
  if (time.length !== 24 || time.charCodeAt(23) !== 90 /* Z */ || time.charCodeAt(19) !== 46) {
    return Date.parse(time);
  }
  const hour = time.slice(0, 13);
  if (hour !== hourKey) {
    const base = Date.parse(`${hour}:00:00.000Z`);
    if (Number.isNaN(base)) return base;
    hourKey = hour;
    hourMs = base;
  }
  const d = (i: number) => time.charCodeAt(i) - 48;
  const minutes = d(14) * 10 + d(15);
  const seconds = d(17) * 10 + d(18);
  const ms = d(20) * 100 + d(21) * 10 + d(22);
  if (!(minutes < 60 && seconds < 61 && ms >= 0 && ms < 1000 && minutes >= 0 && seconds >= 0)) {
    return Date.parse(time);
  }
  return hourMs + minutes * 60_000 + seconds * 1000 + ms;
}

interface Fields {
  time: string;
  level: string;
  event: string;
  msg: string;
  template: string;
  id: string;
  span: string;
  parent: string | null;
  attrs: Record<string, unknown>;
  attrsText: string;
}

/**
 * The fields of a line in the writer's key order, or undefined when the line
 * is not in that shape. A JSON string cannot contain an unescaped `"`, so
 * each key found after a closing quote is a top-level key.
 */
function byPosition(line: string): Fields | undefined {
  if (!line.startsWith('{"time":"') || !line.endsWith("}}")) return undefined;
  let at = 9;
  const time = plain(line, at);
  if (time === undefined) return undefined;
  at += time.length;
  const level = after(line, '","level":"', at);
  if (level === undefined) return undefined;
  at += 11 + level.length;
  const event = after(line, '","event":"', at);
  if (event === undefined) return undefined;
  at += 11 + event.length;
  if (!line.startsWith('","msg":"', at)) return undefined;
  const msgStart = at + 9;
  const msgEnd = closingQuote(line, msgStart);
  if (msgEnd < 0 || !line.startsWith(',"template":"', msgEnd + 1)) return undefined;
  const templateEnd = closingQuote(line, msgEnd + 14);
  if (templateEnd < 0) return undefined;
  const id = after(line, ',"id":"', templateEnd + 1);
  if (id === undefined) return undefined;
  at = templateEnd + 1 + 7 + id.length;
  const span = after(line, '","span":"', at);
  if (span === undefined) return undefined;
  at += 10 + span.length + 1;
  let parent: string | null = null;
  if (line.startsWith(',"parent":"', at)) {
    const value = plain(line, at + 11);
    if (value === undefined) return undefined;
    parent = value;
    at += 11 + value.length + 1;
  }
  if (!line.startsWith(',"attrs":{', at)) return undefined;
  const attrsText = line.slice(at + 9, -1);
  let attrs: unknown;
  let msg: unknown;
  let template: unknown;
  try {
    attrs = JSON.parse(attrsText);
    msg = text(line, msgStart, msgEnd);
    template = text(line, msgEnd + 14, templateEnd);
  } catch {
    return undefined;
  }
  if (attrs === null || typeof attrs !== "object" || Array.isArray(attrs)) return undefined;
  return {
    time,
    level,
    event,
    msg: msg as string,
    template: template as string,
    id,
    span,
    parent,
    attrs: attrs as Record<string, unknown>,
    attrsText,
  };
}

/** The string whose characters run from `start` to the closing quote at `end`, unescaped. */
function text(line: string, start: number, end: number): string {
  const raw = line.slice(start, end);
  return raw.includes("\\") ? JSON.parse(line.slice(start - 1, end + 1)) : raw;
}

/** The index of the `"` closing a string whose characters start at `from`, or -1. */
function closingQuote(line: string, from: number): number {
  let at = from;
  while (true) {
    const quote = line.indexOf('"', at);
    if (quote < 0) return -1;
    let slashes = 0;
    for (let i = quote - 1; i >= from && line.charCodeAt(i) === 92; i--) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/** The string value starting after `key` at `from`. */
function after(line: string, key: string, from: number): string | undefined {
  return line.startsWith(key, from) ? plain(line, from + key.length) : undefined;
}

/** The characters from `from` to the next `"`, or undefined when they hold an escape. */
function plain(line: string, from: number): string | undefined {
  const end = line.indexOf('"', from);
  if (end < 0) return undefined;
  const value = line.slice(from, end);
  return value.includes("\\") ? undefined : value;
}

function byParsing(line: string): Fields | undefined {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (
    r === null || typeof r !== "object" || typeof r.time !== "string" ||
    typeof r.id !== "string" || typeof r.span !== "string" || typeof r.msg !== "string"
  ) return undefined;
  const attrs = r.attrs !== null && typeof r.attrs === "object" && !Array.isArray(r.attrs)
    ? r.attrs as Record<string, unknown>
    : {};
  return {
    time: r.time,
    level: typeof r.level === "string" ? r.level : "info",
    event: typeof r.event === "string" ? r.event : "log",
    msg: r.msg,
    template: typeof r.template === "string" ? r.template : r.msg,
    id: r.id,
    span: r.span,
    parent: typeof r.parent === "string" && r.parent ? r.parent : null,
    attrs,
    attrsText: JSON.stringify(attrs),
  };
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * Opens the index of a logs directory and brings it up to date: what
 * `mcpx log` and `mcpx stats` do before answering. An index SQLite cannot
 * read (damaged, or not a database) is deleted and rebuilt from the files.
 *
 * @param dir The logs directory (created when missing).
 * @returns The open index (close it) and what the ingest did.
 * @throws {Error} from SQLite when the index cannot be written.
 */
export function openIngested(dir: string): { db: DatabaseSync; ingested: IngestResult } {
  ensurePrivateDir(dir, LOG_DIR_WHAT);
  const path = indexPath(dir);
  let db: DatabaseSync;
  try {
    db = openIndex(path);
  } catch (error) {
    if (!/not a database|malformed|corrupt/i.test(String((error as Error)?.message))) throw error;
    for (const file of [path, `${path}-journal`]) {
      try {
        Deno.removeSync(file);
      } catch { /* gone */ }
    }
    db = openIndex(path);
  }
  try {
    return { db, ingested: ingest(db, dir) };
  } catch (error) {
    db.close();
    throw error;
  }
}
