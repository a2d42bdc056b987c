/**
 * Reading records back out of index.db: filtered and newest last (`mcpx
 * log`), new ones since a point (`mcpx log -f`), a call's chain up to the
 * daemon (`mcpx log --chain`), and recent calls.
 *
 * Records come back in the shape they were written (logs/record.ts).
 *
 * @module
 */

import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { type Level, LEVEL_RANK, type LogRecord } from "./record.ts";

/** What `mcpx log` filters on; every field optional. */
export interface RecordQuery {
  /** Records at or after this time, epoch ms. */
  since?: number;
  /** Least severe level kept. */
  level?: Level;
  /** Event names or globs (`server.*`); a record matching any is kept. */
  events?: string[];
  /** `attrs.server`. */
  server?: string;
  /** `attrs.session` or `attrs.run`. */
  session?: string;
  /** Tested against the message and the attributes' JSON. */
  grep?: RegExp;
  /** Only records indexed after this `seq` (following), oldest first. */
  afterSeq?: number;
  /** Most records: the newest ones, printed oldest first. */
  limit?: number;
}

const LEVELS: Level[] = ["debug", "info", "warn", "error"];

const SELECT = `SELECT r.seq, r.ts, r.level_rank, r.event, r.msg, t.text AS template, r.id, r.span,
  r.parent, r.attrs FROM records r JOIN templates t ON t.id = r.template`;

/** A record as read, with its place in the index. */
export interface IndexedRecord {
  seq: number;
  record: LogRecord;
}

/**
 * Records matching `query`: the newest `limit` in time order, or with
 * `afterSeq`, every later one in the order indexed.
 *
 * @returns The records and the highest `seq` in the index (for the next `afterSeq`).
 */
export function findRecords(
  db: DatabaseSync,
  query: RecordQuery,
): { records: IndexedRecord[]; lastSeq: number } {
  const where: string[] = [];
  const params: SQLInputValue[] = [];
  if (query.since !== undefined) {
    where.push("r.ts >= ?");
    params.push(query.since);
  }
  if (query.level) {
    where.push("r.level_rank >= ?");
    params.push(LEVEL_RANK[query.level]);
  }
  if (query.events?.length) {
    where.push(`(${query.events.map(() => "r.event GLOB ?").join(" OR ")})`);
    params.push(...query.events);
  }
  if (query.server) {
    where.push("r.server = ?");
    params.push(query.server);
  }
  if (query.session) {
    where.push("(r.session = ? OR r.run = ?)");
    params.push(query.session, query.session);
  }
  if (query.grep) {
    const pattern = query.grep;
    db.function(
      "mcpx_grep",
      { deterministic: true },
      (msg, attrs) => pattern.test(String(msg)) || pattern.test(String(attrs)) ? 1 : 0,
    );
    where.push("mcpx_grep(r.msg, r.attrs)");
  }
  const lastSeq = Number(
    (db.prepare("SELECT coalesce(max(seq), 0) AS n FROM records").get() as { n: number }).n,
  );
  let sql: string;
  if (query.afterSeq !== undefined) {
    where.push("r.seq > ?");
    params.push(query.afterSeq);
    sql = `${SELECT}${clause(where)} ORDER BY r.seq${query.limit ? " LIMIT ?" : ""}`;
  } else {
    sql = `${SELECT}${clause(where)} ORDER BY r.ts DESC, r.id DESC${query.limit ? " LIMIT ?" : ""}`;
  }
  if (query.limit) params.push(query.limit);
  const rows = db.prepare(sql).all(...params).map(toIndexed);
  if (query.afterSeq === undefined) rows.reverse();
  return { records: rows, lastSeq };
}

/** One line of a chain: a record and how deep it sits (0: the outermost span). */
export interface ChainEntry {
  depth: number;
  record: LogRecord;
}

/**
 * A span and everything that led to it: the record that created each
 * enclosing span (the daemon, then the instance), then every record of the
 * span itself, oldest first. `id` may be a span id (`cal-…`) or any record's id.
 *
 * @returns Entries, outermost first; `[]` when nothing has that id.
 */
export function chainOf(db: DatabaseSync, id: string): ChainEntry[] {
  let own = recordsOfSpan(db, id);
  if (own.length === 0) {
    const row = db.prepare("SELECT span FROM records WHERE id = ? LIMIT 1").get(id) as
      | { span: string }
      | undefined;
    if (!row) return [];
    own = recordsOfSpan(db, row.span);
  }
  const ancestors: LogRecord[] = [];
  const seen = new Set([own[0].span]);
  let parent = own.find((r) => r.parent)?.parent;
  while (parent && !seen.has(parent) && ancestors.length < 16) {
    seen.add(parent);
    const creating = creatingRecord(db, parent);
    if (!creating) break;
    ancestors.unshift(creating);
    parent = creating.parent;
  }
  return [
    ...ancestors.map((record, depth) => ({ depth, record })),
    ...own.map((record) => ({ depth: ancestors.length, record })),
  ];
}

/** The most recent calls, newest first: id, time, tool, duration, outcome. */
export function recentCalls(
  db: DatabaseSync,
  limit: number,
): { call: string; time: string; server: string; tool: string; ms: number; ok: boolean }[] {
  return db.prepare(
    `SELECT span, ts, server, tool, ms, ok FROM records WHERE event = 'call.end'
     ORDER BY ts DESC, id DESC LIMIT ?`,
  ).all(limit).map((r) => ({
    call: r.span as string,
    time: new Date(r.ts as number).toISOString(),
    server: r.server as string,
    tool: r.tool as string,
    ms: r.ms as number,
    ok: r.ok === 1,
  }));
}

function recordsOfSpan(db: DatabaseSync, span: string): LogRecord[] {
  return db.prepare(`${SELECT} WHERE r.span = ? ORDER BY r.ts, r.id`).all(span).map((row) =>
    toIndexed(row).record
  );
}

function creatingRecord(db: DatabaseSync, span: string): LogRecord | undefined {
  const row = db.prepare(
    `${SELECT} WHERE r.span = ? AND r.event IN ('daemon.start', 'server.start', 'run.start')
     ORDER BY r.ts, r.id LIMIT 1`,
  ).get(span) ?? db.prepare(`${SELECT} WHERE r.span = ? ORDER BY r.ts, r.id LIMIT 1`).get(span);
  return row ? toIndexed(row).record : undefined;
}

function clause(where: string[]): string {
  return where.length ? ` WHERE ${where.join(" AND ")}` : "";
}

function toIndexed(row: Record<string, unknown>): IndexedRecord {
  const record: LogRecord = {
    time: new Date(row.ts as number).toISOString(),
    level: LEVELS[row.level_rank as number] ?? "info",
    event: row.event as string,
    msg: row.msg as string,
    template: row.template as string,
    id: row.id as string,
    span: row.span as string,
    attrs: {},
  };
  if (row.parent) record.parent = row.parent as string;
  try {
    record.attrs = JSON.parse(row.attrs as string);
  } catch { /* indexed from a line that parsed; keep {} */ }
  return { seq: row.seq as number, record };
}
