/**
 * `index.db`: the SQLite index beside the log files (`node:sqlite`). It
 * exists only to answer queries; every row comes from a file, so deleting it
 * costs a rescan and no data (spec 000, "Reading the log"). A database of an
 * older layout is emptied and rebuilt the same way, and a damaged one
 * ({@link isDamagedIndex}, whichever statement finds the damage) is moved
 * aside ({@link setAsideDamagedIndex}) and rebuilt (logs/ingest.ts `openIngested`, `readIndex`).
 *
 * Tables: `files` (what has been read of each log file), `records` (one row
 * per record, with the attributes queries filter and group on lifted into
 * columns), `templates` (each message template once) and `call_totals`
 * (calls, errors and the longest call per server and tool, kept as records
 * arrive so `mcpx stats calls` does not count half a million rows). Views: `log` (every field by name), `calls`
 * (one row per finished call), `instances` (one row per server process).
 * `mcpx log sql --schema` prints all of it.
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { join } from "../core/posix_path.ts";
import { isDamagedDatabase, openPrivateDatabase } from "../core/private_sqlite.ts";
import { moveDamagedAside } from "../core/damaged_json.ts";

/**
 * How long a command waits for another one's ingest, in ms: a cold ingest of a
 * million records takes seconds, and waiting beats failing with "locked".
 */
export const BUSY_TIMEOUT_MS = 60_000;

/** Bump when the layout changes: an index of another version is rebuilt. */
export const SCHEMA_VERSION = "5";

/** The index file in a logs directory. */
export function indexPath(logsDir: string): string {
  return join(logsDir, "index.db");
}

/** The tables of the index. */
const TABLES: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
)`,
  `CREATE TABLE IF NOT EXISTS files (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,   -- file name in the logs directory
  size INTEGER NOT NULL,       -- bytes seen at the last read (a torn last line included)
  mtime_ms INTEGER NOT NULL,   -- modification time at the last read
  offset INTEGER NOT NULL      -- bytes up to the end of the last complete line
)`,
  `CREATE TABLE IF NOT EXISTS templates (
  id INTEGER PRIMARY KEY,
  text TEXT NOT NULL UNIQUE    -- a message template, stored once
)`,
  `CREATE TABLE IF NOT EXISTS records (
  seq INTEGER PRIMARY KEY,     -- order of arrival in this index (not stable across rebuilds)
  file INTEGER NOT NULL,       -- files.id
  id TEXT NOT NULL,            -- the record's own id
  ts INTEGER NOT NULL,         -- the record's time, ms since the epoch (UTC)
  level_rank INTEGER NOT NULL, -- 0 debug, 1 info, 2 warn, 3 error
  event TEXT NOT NULL,         -- daemon.start, server.exit, call.end, log, ...
  msg TEXT NOT NULL,
  template INTEGER NOT NULL,   -- templates.id
  span TEXT NOT NULL,          -- what it happened inside
  parent TEXT,                 -- only on the record that creates span
  server TEXT,                 -- attrs.server
  tool TEXT,                   -- attrs.tool
  session TEXT,                -- attrs.session
  run TEXT,                    -- attrs.run
  ms REAL,                     -- attrs.ms
  ok INTEGER,                  -- attrs.ok: 1, 0, or NULL when absent
  error_template TEXT,         -- attrs.error with its values taken out (logs/error_template.ts)
  attrs TEXT NOT NULL          -- every attribute, JSON
)`,
  `CREATE TABLE IF NOT EXISTS call_totals (
  server TEXT NOT NULL,
  tool TEXT NOT NULL,
  calls INTEGER NOT NULL,      -- call.end records
  errors INTEGER NOT NULL,     -- of which ok = 0
  timed INTEGER NOT NULL,      -- of which with ms
  max_ms REAL,
  PRIMARY KEY (server, tool)
)`,
];

/**
 * Secondary indexes kept as rows arrive: `ts` grows within each file (appends
 * at the index's right edge), and only a few records create spans.
 */
const LIVE_INDEXES: readonly string[] = [
  `CREATE INDEX IF NOT EXISTS records_ts ON records (ts)`,
  // The records that create a daemon, an instance or a run (what \`--chain\` walks up to).
  `CREATE INDEX IF NOT EXISTS records_spans ON records (span)
  WHERE event IN ('daemon.start', 'server.start', 'run.start')`,
];

/**
 * Secondary indexes whose keys arrive in no order: a cold ingest drops them
 * and builds them once at its end (one sort instead of a million random inserts).
 */
export const BULK_INDEXES: readonly string[] = [
  // Covering for \`mcpx stats calls\`: counts, errors and exact percentiles walk this index only.
  `CREATE INDEX IF NOT EXISTS records_calls ON records (server, tool, ms, ok)
  WHERE event = 'call.end'`,
];

/** An ISO 8601 time in SQL from a `ts` column. */
const ISO = (column: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${column} / 1000.0, 'unixepoch')`;

/** Views for `mcpx log sql`: the record fields by name, calls, and server processes. */
const VIEWS: readonly string[] = [
  `CREATE VIEW IF NOT EXISTS log AS
  SELECT seq, ${ISO("ts")} AS time,
         CASE level_rank WHEN 0 THEN 'debug' WHEN 1 THEN 'info' WHEN 2 THEN 'warn' ELSE 'error' END
           AS level,
         event, msg, t.text AS template, records.id AS id, span, parent, attrs
  FROM records JOIN templates t ON t.id = records.template`,
  `CREATE VIEW IF NOT EXISTS calls AS
  SELECT ${
    ISO("ts")
  } AS time, span AS call, server, attrs ->> 'namespace' AS namespace, tool, session, run,
         attrs ->> 'instance' AS instance, attrs ->> 'key' AS key, ms, ok,
         attrs ->> 'error' AS error, error_template,
         attrs ->> 'bytesIn' AS bytes_in, attrs ->> 'bytesOut' AS bytes_out
  FROM records WHERE event = 'call.end'`,
  `CREATE VIEW IF NOT EXISTS instances AS
  SELECT s.span AS instance, s.server, s.attrs ->> 'pid' AS pid, s.attrs ->> 'key' AS key,
         ${ISO("s.ts")} AS started, ${
    ISO("e.ts")
  } AS ended, e.attrs ->> 'why' AS why, e.attrs ->> 'code' AS code,
         e.attrs ->> 'signal' AS signal, e.attrs ->> 'uptimeMs' AS uptime_ms,
         e.attrs ->> 'calls' AS calls, s.parent AS daemon
  FROM records s LEFT JOIN records e ON e.span = s.span AND e.event = 'server.exit'
  WHERE s.event = 'server.start'`,
];

/** The DDL of the index, in creation order. */
export const SCHEMA: readonly string[] = [...TABLES, ...LIVE_INDEXES, ...BULK_INDEXES, ...VIEWS];

/**
 * Runs statements one at a time through `prepare`, not `exec`: Deno's
 * `exec` throws without SQLite's result code (`errcode`), which
 * {@link isDamagedIndex} and a full disk's {@link SQLITE_FULL} are read from.
 *
 * @param db The index.
 * @param statements One statement each (no `;`-separated lists).
 */
export function execute(db: DatabaseSync, ...statements: string[]): void {
  for (const statement of statements) db.prepare(statement).run();
}

/**
 * True when SQLite says the index file is damaged or not a database
 * (core/private_sqlite.ts `isDamagedDatabase`, whichever statement found it:
 * opening, ingesting or a query).
 */
export const isDamagedIndex: (error: unknown) => boolean = isDamagedDatabase;

/** SQLITE_FULL: the disk (or the file system's quota) is full. */
export const SQLITE_FULL = 13;

/**
 * Moves a damaged index aside (`index.db.damaged-<time>`, the one rule for a
 * damaged state file: core/damaged_json.ts `moveDamagedAside`, which queues
 * the warning): the next ingest rebuilds it from the log files (spec 000,
 * "Reading the log": the index costs a rescan and no data).
 *
 * @param path The index file.
 * @param error What SQLite threw ({@link isDamagedIndex}).
 */
export function setAsideDamagedIndex(path: string, error: unknown): void {
  moveDamagedAside({
    path,
    what: "the log index",
    why: error instanceof Error ? error.message : String(error),
    lost: "nothing is lost, it is rebuilt from the log files",
  });
}

/**
 * Opens (creating when missing) the index for writing: schema in place, an
 * index of another layout emptied, a busy timeout so two commands
 * ingesting at once wait for each other.
 *
 * @param path The index file.
 * @returns The open database; close it when done.
 * @throws {Error} from SQLite when the file cannot be opened.
 */
export function openIndex(path: string): DatabaseSync {
  const db = openPrivateDatabase(path, BUSY_TIMEOUT_MS);
  try {
    execute(
      db,
      "PRAGMA journal_mode = DELETE",
      "PRAGMA synchronous = NORMAL",
      "PRAGMA cache_size = -65536",
      "PRAGMA temp_store = MEMORY",
    );
    const hasMeta = db.prepare(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
    ).get();
    const version = hasMeta
      ? (db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as
        | { value: string }
        | undefined)?.value
      : undefined;
    if (hasMeta && version !== SCHEMA_VERSION) {
      execute(
        db,
        ...["log", "calls", "instances"].map((view) => `DROP VIEW IF EXISTS ${view}`),
        ...["records", "templates", "files", "call_totals", "meta"].map((table) =>
          `DROP TABLE IF EXISTS ${table}`
        ),
      );
    }
    if (version !== SCHEMA_VERSION) {
      execute(db, ...SCHEMA);
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)").run(
        SCHEMA_VERSION,
      );
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Opens the index read-only (`mcpx log sql`): SQLite itself refuses every
 * statement that would write, and `query_only` refuses temporary tables too.
 *
 * @throws {Error} from SQLite when the file does not exist or cannot be read.
 */
export function openIndexReadOnly(path: string): DatabaseSync {
  const db = new DatabaseSync(path, { readOnly: true, timeout: BUSY_TIMEOUT_MS });
  db.exec("PRAGMA query_only = ON");
  return db;
}
