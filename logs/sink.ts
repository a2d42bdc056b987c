/**
 * The bridge from LogTape (the logger the daemon calls) to mcpx's records: a
 * LogTape sink that turns each LogTape record into a {@link LogRecord} —
 * redacted, with an id, its span and event — and hands it on (to a
 * {@link LogWriter}, a mirror on stderr, a test's array).
 *
 * Reserved properties (not written as attributes): `@event`, `@span`,
 * `@parent`. The message is rendered from LogTape's raw template by
 * {@link renderTemplate}, which leaves a placeholder without a value visible.
 *
 * @module
 */

import type { LogRecord as LogTapeRecord, Sink } from "@logtape/logtape";
import { type Level, type LogRecord, recordIds, renderTemplate } from "./record.ts";
import type { Redactor } from "../core/redact.ts";

/** Property names the daemon passes to LogTape that become record fields, not attributes. */
export const RESERVED = { event: "@event", span: "@span", parent: "@parent" } as const;

const LEVELS: Record<string, Level> = {
  trace: "debug",
  debug: "debug",
  info: "info",
  warning: "warn",
  error: "error",
  fatal: "error",
};

/** Options of {@link recordSink}. */
export interface RecordSinkOptions {
  redactor: Redactor;
  /** The span of records that name none (the daemon's). */
  defaultSpan: () => string;
  /** Receives each finished record. Must not throw; errors are swallowed. */
  emit: (record: LogRecord) => void;
}

/**
 * A LogTape sink producing mcpx records.
 *
 * @returns A sink for LogTape's `configure({ sinks })`.
 */
export function recordSink(options: RecordSinkOptions): Sink {
  const nextId = recordIds();
  return (entry: LogTapeRecord) => {
    try {
      options.emit(toRecord(entry, options, nextId));
    } catch { /* a log record must never take the daemon down */ }
  };
}

function toRecord(
  entry: LogTapeRecord,
  options: RecordSinkOptions,
  nextId: () => string,
): LogRecord {
  const { redactor } = options;
  const properties = entry.properties as Record<string, unknown>;
  const attrs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (key[0] !== "@" || !isReserved(key)) attrs[key] = value;
  }
  const raw = entry.rawMessage;
  const template = typeof raw === "string" ? raw : raw.join("{}");
  const safe = redactor.attrs(attrs);
  const record: LogRecord = {
    time: new Date(entry.timestamp).toISOString(),
    level: LEVELS[entry.level] ?? "info",
    event: String(properties[RESERVED.event] ?? "log"),
    msg: redactor.text(renderTemplate(template, safe)),
    template,
    id: nextId(),
    span: String(properties[RESERVED.span] ?? options.defaultSpan()),
    attrs: safe,
  };
  const parent = properties[RESERVED.parent];
  if (typeof parent === "string" && parent) record.parent = parent;
  return record;
}

function isReserved(key: string): boolean {
  return key === RESERVED.event || key === RESERVED.span || key === RESERVED.parent;
}
