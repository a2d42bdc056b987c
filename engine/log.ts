/**
 * The daemon's records. Every record goes through LogTape to the durable log
 * (`<stateDir>/logs/`, logs/writer.ts) once {@link openDurableLog} ran, and to
 * a mirror: stderr as readable lines for a foreground daemon, or, for an
 * auto-started one, errors as JSON lines in
 * `<stateDir>/daemons/<fingerprint>.log` (what the CLI shows when a daemon it
 * started does not answer).
 *
 * A record names its event, a template with `{placeholders}` filled from the
 * attributes, and the span it happened inside (the daemon's unless given);
 * a record that creates a span passes `parent` too (logs/record.ts).
 *
 * @module
 */

import { onMovedAside } from "../core/damaged_json.ts";
import { AsyncLocalStorage } from "node:async_hooks";
import { configureSync, getLogger, type LogLevel, type Sink, withFilter } from "@logtape/logtape";
import { withIds } from "../logs/trace_ids.ts";
import {
  encodeRecord,
  type Level,
  LEVEL_RANK,
  type LogRecord,
  newSpanId,
  renderTemplate,
  type SpanKind,
} from "../logs/record.ts";
import { renderRecord } from "../logs/render.ts";
import { Redactor } from "../core/redact.ts";
import { recordSink, RESERVED } from "../logs/sink.ts";
import { type DroppedRecords, LOG_DIR_WHAT, LogWriter } from "../logs/writer.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../core/private_fs.ts";
import { StorageError } from "../core/errors.ts";
import { terminalText } from "../core/terminal_text.ts";
import { type DroppedWindow, ServerGate, type ServerGateLimits } from "../logs/server_gate.ts";

export type { Level } from "../logs/record.ts";

/** Where a record happened: its span, and on a record that creates the span, the span's parent. */
export interface Where {
  span: string;
  parent?: string;
  /**
   * The server whose message or request caused the record: it counts against
   * that server's allowance ({@link setServerRecordLimits}, decision 0063).
   */
  server?: string;
}

/** How the durable log is written. */
export interface DurableLogOptions {
  /** `<stateDir>/logs`. */
  dir: string;
  /** Who writes, e.g. `daemon-9f3c2a1b-4123`. */
  source: string;
  /** Bytes per file before rotating (setting `logging.maxFileSize`). */
  maxFileSize: number;
  /** Age after which files are removed, in ms (setting `logging.retention`). */
  retentionMs: number;
  /** Bytes the directory may hold, oldest files removed first (setting `logging.maxDirSize`; 0: no bound). */
  maxDirSize?: number;
  /**
   * What replaces the configuration's secrets in every record (core/redact.ts,
   * config/secrets.ts `configRedactor()`); default: the one {@link setLogRedactor} set.
   */
  redactor?: Redactor;
}

const TO_LOGTAPE: Record<Level, LogLevel> = {
  debug: "debug",
  info: "info",
  warn: "warning",
  error: "error",
};

const state: {
  level: Level;
  writer?: LogWriter;
  redactor: Redactor;
  mirror?: { kind: "stderr" } | { kind: "file"; file: Deno.FsFile };
  daemonSpan: string;
  /** Told when records are dropped ({@link onLogDropped}). */
  dropped?: (facts: LogDropped) => void;
  /** The durable log is refusing records now (a streak of failed writes is told once). */
  refusing: boolean;
} = {
  level: "info",
  redactor: new Redactor(),
  daemonSpan: newSpanId("daemon"),
  refusing: false,
};

/**
 * Records the log dropped, as {@link onLogDropped} tells them: a server over
 * its allowance in one window (`reason: "server-budget"`: decision 0063,
 * `logging.serverRate` and `logging.serverRecordBytes`), or the durable log
 * refusing a write (`reason: "write-failed"`, told at the first record of a
 * streak; `records` counts every record lost since the daemon started).
 */
export type LogDropped =
  | ({ reason: "server-budget"; count: number } & DroppedWindow)
  | ({ reason: "write-failed" } & DroppedRecords & { dir: string });

/**
 * Tells `listener` of every drop from now on (the daemon publishes `log.dropped`
 * on its event bus: engine/process_events.ts); undefined stops telling.
 * The listener must not throw.
 */
export function onLogDropped(listener: ((facts: LogDropped) => void) | undefined): void {
  state.dropped = listener;
}

const logger = getLogger(["mcpx"]);
/** The `id.<key>` attributes of the request being served (logs/trace_ids.ts). */
const callerIds = new AsyncLocalStorage<Record<string, unknown>>();

/**
 * Runs `fn` with `ids` (`id.<key>` attributes, logs/trace_ids.ts
 * `idAttributes()`) added to every record written while it runs, including
 * from work it starts (spec 000, "The harness knows what the agent does not").
 *
 * @param ids The attributes; an attribute a record sets itself wins.
 * @param fn What the caller asked for.
 * @returns What `fn` returns.
 */
export function withCallerIds<T>(ids: Record<string, unknown>, fn: () => T): T {
  return Object.keys(ids).length ? callerIds.run(ids, fn) : fn();
}
const encoder = new TextEncoder();

/** A new span id of `kind` (`ins-…`, `cal-…`). */
export function newSpan(kind: SpanKind): string {
  return newSpanId(kind);
}

/** The span of this daemon: the parent of its instances. */
export function daemonSpan(): string {
  return state.daemonSpan;
}

/** Milliseconds since `start` (a `performance.now()`), to 0.1 ms: a record's `ms`, `leaseMs`. */
export function elapsedMs(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

/** Records below `level` are dropped from now on (setting `logging.level`). */
export function setLogLevel(level: Level): void {
  state.level = LEVEL_RANK[level] === undefined ? "info" : level;
  apply();
}

/** Mirrors records to stderr as readable lines (a foreground daemon). */
export function mirrorToStderr(): void {
  closeMirror();
  state.mirror = { kind: "stderr" };
  apply();
}

/** Mirrors errors to `path` as JSON lines (an auto-started daemon's `--log`). */
export function mirrorToFile(path: string): void {
  closeMirror();
  state.mirror = {
    kind: "file",
    file: Deno.openSync(path, { create: true, append: true, write: true, mode: PRIVATE_FILE_MODE }),
  };
  apply();
}

/**
 * Starts writing the durable log. Records before this go to the mirror only.
 *
 * @throws {Deno.errors.*} when the logs directory cannot be created.
 */
export function openDurableLog(options: DurableLogOptions): void {
  state.writer?.close();
  // A state file found damaged and moved aside (decision 0019) is a record too, not only a notice.
  onMovedAside((moved) =>
    log("warn", "state.damaged", "{what} {path} was damaged ({why}); moved aside as {copy}", {
      what: moved.what,
      path: moved.path,
      why: moved.why,
      copy: moved.movedTo,
      lost: moved.lost,
    })
  );
  try {
    ensurePrivateDir(options.dir, LOG_DIR_WHAT);
  } catch (error) {
    // A full disk: the writer tries again at each record and counts what it cannot write.
    if (!(error instanceof StorageError)) throw error;
  }
  state.writer = new LogWriter(options);
  if (options.redactor) state.redactor = options.redactor;
  apply();
}

/**
 * Redacts every record from now on with `redactor`, the mirror's included:
 * set as soon as the configuration is loaded, before anything is logged about it.
 */
export function setLogRedactor(redactor: Redactor): void {
  state.redactor = redactor;
  apply();
}

/**
 * The records this daemon could not write to its durable log (a full disk),
 * with the log's directory; undefined when none were lost (logs/writer.ts).
 */
export function droppedRecords(): (DroppedRecords & { dir: string }) | undefined {
  const dropped = state.writer?.dropped;
  return dropped && { ...dropped, dir: state.writer!.dir };
}

/** Closes the durable log and the mirror file (records after this are dropped). */
export function closeLog(): void {
  serverGate.flushAll();
  state.writer?.close();
  state.writer = undefined;
  closeMirror();
  apply();
}

/** What one server may make the daemon record: the defaults of the settings until set. */
const serverGate = new ServerGate({ rate: 100, maxBytes: 65536, summary: droppedSummary });

/**
 * Bounds the records a server causes (a record whose {@link Where} names a
 * server): settings `logging.serverRate` (records a second) and
 * `logging.serverRecordBytes` (bytes a record). Decision 0063.
 */
export function setServerRecordLimits(limits: ServerGateLimits): void {
  serverGate.limits = limits;
}

/** The one record a second that says how many of a server's records were dropped. */
function droppedSummary(dropped: DroppedWindow): void {
  const count = dropped.overRate + dropped.overSize;
  log(
    "warn",
    "server.dropped",
    "server {server} caused {count} records too many in {windowMs} ms; not written " +
      "(over {rate} a second: {overRate}; over {maxBytes} bytes: {overSize})",
    { ...dropped, count },
  );
  state.dropped?.({ reason: "server-budget", count, ...dropped });
}

/** About the bytes a record takes as a JSON line, before redaction. */
function recordSize(template: string, attrs: Record<string, unknown>): number {
  let json = "";
  try {
    json = JSON.stringify(attrs) ?? "";
  } catch { /* a cycle: LogTape's problem, not the size's */ }
  return encoder.encode(json).length + encoder.encode(renderTemplate(template, attrs)).length +
    template.length + RECORD_FIXED_BYTES;
}

/** The fields every record has besides its message, template and attributes, in bytes. */
const RECORD_FIXED_BYTES = 160;

/**
 * Writes one record. Never throws. A record whose `where.server` names a
 * server is dropped (and counted in a `server.dropped` record) when that
 * server is over its allowance.
 *
 * @param event e.g. `server.start`.
 * @param template e.g. `"server {server} started as pid {pid}"`.
 * @param attrs Values for the template and anything worth keeping (redacted before writing).
 * @param where The span (default: the daemon's) and, when this record creates it, its parent.
 */
export function log(
  level: Level,
  event: string,
  template: string,
  attrs: Record<string, unknown> = {},
  where?: Where,
): void {
  if (LEVEL_RANK[level] < LEVEL_RANK[state.level]) return;
  if (where?.server && !serverGate.admit(where.server, () => recordSize(template, attrs))) return;
  const properties: Record<string, unknown> = {
    ...withIds(attrs, callerIds.getStore()),
    [RESERVED.event]: event,
    [RESERVED.span]: where?.span ?? state.daemonSpan,
  };
  if (where?.parent) properties[RESERVED.parent] = where.parent;
  try {
    logger[level === "warn" ? "warn" : level](template, properties);
  } catch { /* never */ }
}

function closeMirror(): void {
  if (state.mirror?.kind === "file") {
    try {
      state.mirror.file.close();
    } catch { /* closed */ }
  }
  state.mirror = undefined;
}

function emit(record: LogRecord): void {
  // A record the disk refuses is counted (droppedRecords), never the daemon's end.
  const written = state.writer?.append(encodeRecord(record));
  if (written === false && !state.refusing) {
    state.refusing = true;
    const dropped = droppedRecords();
    if (dropped) state.dropped?.({ reason: "write-failed", ...dropped });
  } else if (written) state.refusing = false;
  const mirror = state.mirror;
  if (!mirror) return;
  try {
    // `mcpx daemon` on a terminal: a server's stderr line must not drive it (core/terminal_text.ts).
    if (mirror.kind === "stderr") {
      console.error(terminalText(renderRecord(record, { date: false })));
    } else if (record.level === "error") {
      mirror.file.writeSync(encoder.encode(encodeRecord(record)));
    }
  } catch { /* the mirror is gone */ }
}

function apply(): void {
  const sink: Sink = recordSink({
    redactor: state.redactor,
    defaultSpan: () => state.daemonSpan,
    emit,
  });
  configureSync({
    reset: true,
    sinks: { records: sink, meta: withFilter(sink, "warning") },
    loggers: [
      { category: ["mcpx"], sinks: ["records"], lowestLevel: TO_LOGTAPE[state.level] },
      { category: ["logtape", "meta"], sinks: ["meta"], lowestLevel: "warning" },
    ],
  });
}
