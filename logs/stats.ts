/**
 * The aggregates of `mcpx stats`, computed from index.db (spec 000, "Reading
 * the log"). Every view takes `since` (epoch ms, 0 for everything).
 *
 * Percentiles are exact, by nearest rank: p50 of n durations is the
 * ⌈0.5·n⌉-th smallest, so every number printed is a call that really took
 * that long. Without `since`, counts come from `call_totals` and each
 * percentile from walking the covering index of calls from whichever end is
 * nearer; with it, from the calls in range.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { listLogFiles } from "./writer.ts";
import { join } from "../core/posix_path.ts";

/** The views, in the order `mcpx stats` lists them. */
export const STATS_VIEWS = [
  "calls",
  "slowest",
  "servers",
  "instances",
  "errors",
  "sessions",
  "volume",
] as const;

/** A view name. */
export type StatsView = typeof STATS_VIEWS[number];

/** One row of `calls`: per server and tool. */
export interface CallsRow {
  server: string;
  namespace: string;
  tool: string;
  calls: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * The nearest-rank position (1-based) of percentile `p` among `n` values.
 *
 * @example
 * ```ts
 * import { rank } from "./stats.ts";
 * if (rank(50, 10) !== 5 || rank(95, 20) !== 19 || rank(99, 20) !== 20) throw new Error();
 * ```
 */
export function rank(p: number, n: number): number {
  return Math.max(1, Math.ceil((p * n) / 100 - 1e-9));
}

/** Calls per server and tool: count, errors, exact p50/p95/p99 and max, in ms. */
export function callsView(db: DatabaseSync, since = 0): CallsRow[] {
  if (since > 0) return callsInRange(db, since);
  const groups = db.prepare(
    `SELECT server, tool, calls, errors, max_ms AS max, timed FROM call_totals`,
  ).all() as {
    server: string;
    tool: string;
    calls: number;
    errors: number;
    max: number;
    timed: number;
  }[];
  const ascending = db.prepare(
    `SELECT ms FROM records WHERE event = 'call.end' AND server = ? AND tool = ? AND ms IS NOT NULL
     ORDER BY ms LIMIT 1 OFFSET ?`,
  );
  const descending = db.prepare(
    `SELECT ms FROM records WHERE event = 'call.end' AND server = ? AND tool = ? AND ms IS NOT NULL
     ORDER BY ms DESC LIMIT 1 OFFSET ?`,
  );
  const namespace = db.prepare(
    `SELECT attrs ->> 'namespace' AS ns FROM records
     WHERE event = 'call.end' AND server = ? AND tool = ? LIMIT 1`,
  );
  const at = (g: typeof groups[number], p: number): number => {
    const k = rank(p, g.timed);
    const row = k - 1 <= g.timed - k
      ? ascending.get(g.server, g.tool, k - 1)
      : descending.get(g.server, g.tool, g.timed - k);
    return (row?.ms as number) ?? 0;
  };
  return sortCalls(groups.map((g) => ({
    server: g.server,
    namespace: (namespace.get(g.server, g.tool)?.ns as string) ?? g.server,
    tool: g.tool,
    calls: g.calls,
    errors: g.errors,
    p50: g.timed ? at(g, 50) : 0,
    p95: g.timed ? at(g, 95) : 0,
    p99: g.timed ? at(g, 99) : 0,
    max: g.max ?? 0,
  })));
}

function callsInRange(db: DatabaseSync, since: number): CallsRow[] {
  const groups = new Map<string, { row: CallsRow; ms: number[] }>();
  for (
    const r of db.prepare(
      `SELECT server, tool, attrs ->> 'namespace' AS ns, ms, ok FROM records
       WHERE ts >= ? AND event = 'call.end'`,
    ).all(since)
  ) {
    const key = `${r.server}\0${r.tool}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        row: {
          server: r.server as string,
          namespace: (r.ns as string) ?? (r.server as string),
          tool: r.tool as string,
          calls: 0,
          errors: 0,
          p50: 0,
          p95: 0,
          p99: 0,
          max: 0,
        },
        ms: [],
      };
      groups.set(key, group);
    }
    group.row.calls++;
    if (r.ok === 0) group.row.errors++;
    if (typeof r.ms === "number") group.ms.push(r.ms);
  }
  return sortCalls([...groups.values()].map(({ row, ms }) => {
    ms.sort((a, b) => a - b);
    if (ms.length) {
      row.p50 = ms[rank(50, ms.length) - 1];
      row.p95 = ms[rank(95, ms.length) - 1];
      row.p99 = ms[rank(99, ms.length) - 1];
      row.max = ms[ms.length - 1];
    }
    return row;
  }));
}

function sortCalls(rows: CallsRow[]): CallsRow[] {
  return rows.sort((a, b) =>
    b.calls - a.calls || a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool)
  );
}

/** One call of `slowest`. */
export interface SlowCall {
  call: string;
  time: string;
  server: string;
  namespace: string;
  tool: string;
  ms: number;
  ok: boolean;
  session?: string;
  instance?: string;
  error?: string;
}

/** The slowest individual calls, slowest first, with their ids (for `--chain`). */
export function slowestView(db: DatabaseSync, since = 0, limit = 20): SlowCall[] {
  return db.prepare(
    `SELECT span, ts, server, attrs ->> 'namespace' AS ns, tool, ms, ok, session,
            attrs ->> 'instance' AS instance, attrs ->> 'error' AS error
     FROM records WHERE event = 'call.end' AND ts >= ? AND ms IS NOT NULL
     ORDER BY ms DESC LIMIT ?`,
  ).all(since, limit).map((r) => ({
    call: r.span as string,
    time: iso(r.ts),
    server: r.server as string,
    namespace: (r.ns as string) ?? (r.server as string),
    tool: r.tool as string,
    ms: r.ms as number,
    ok: r.ok === 1,
    ...(r.session ? { session: r.session as string } : {}),
    ...(r.instance ? { instance: r.instance as string } : {}),
    ...(r.error ? { error: r.error as string } : {}),
  }));
}

/** One row of `servers`: a server's processes in aggregate. */
export interface ServerRow {
  server: string;
  starts: number;
  running: number;
  failedStarts: number;
  /** Exits by reason: `idle`, `crash`, `stop`, `restart`. */
  exits: Record<string, number>;
  calls: number;
  errors: number;
  lastStart?: string;
}

/** Process lifecycle per server: starts, exits by reason, failed starts, calls. */
export function serversView(db: DatabaseSync, since = 0): ServerRow[] {
  const rows = new Map<string, ServerRow>();
  const get = (server: string) => {
    let row = rows.get(server);
    if (!row) {
      row = { server, starts: 0, running: 0, failedStarts: 0, exits: {}, calls: 0, errors: 0 };
      rows.set(server, row);
    }
    return row;
  };
  for (
    const r of db.prepare(
      `SELECT server, event, attrs ->> 'why' AS why, count(*) AS n, max(ts) AS last FROM records
       WHERE ts >= ? AND event IN ('server.start', 'server.exit', 'server.fail')
         AND server IS NOT NULL
       GROUP BY server, event, why`,
    ).all(since)
  ) {
    const row = get(r.server as string);
    const n = r.n as number;
    if (r.event === "server.start") {
      row.starts += n;
      row.lastStart = iso(r.last);
    } else if (r.event === "server.fail") row.failedStarts += n;
    else row.exits[(r.why as string) ?? "unknown"] = n;
  }
  for (
    const r of db.prepare(
      `SELECT server, count(*) AS calls, coalesce(sum(ok = 0), 0) AS errors FROM records
       WHERE event = 'call.end' AND ts >= ? AND server IS NOT NULL GROUP BY server`,
    ).all(since)
  ) {
    const row = get(r.server as string);
    row.calls = r.calls as number;
    row.errors = r.errors as number;
  }
  for (const row of rows.values()) {
    row.running = Math.max(0, row.starts - Object.values(row.exits).reduce((a, b) => a + b, 0));
  }
  return [...rows.values()].sort((a, b) => a.server.localeCompare(b.server));
}

/** One row of `instances`: one server process. */
export interface InstanceRow {
  instance: string;
  server: string;
  pid?: number;
  key?: string;
  started: string;
  ended?: string;
  /** ms from start to exit; absent while no exit is recorded. */
  uptimeMs?: number;
  /** Why it stopped (`idle`, `crash`, `stop`, `restart`); absent while no exit is recorded. */
  why?: string;
  code?: number;
  signal?: string;
  calls: number;
  daemon?: string;
}

/** One row per server process, newest first. */
export function instancesView(db: DatabaseSync, since = 0, limit = 50): InstanceRow[] {
  const starts = db.prepare(
    `SELECT span, ts, server, parent, attrs ->> 'pid' AS pid, attrs ->> 'key' AS key FROM records
     WHERE event = 'server.start' AND ts >= ? ORDER BY ts DESC LIMIT ?`,
  ).all(since, limit);
  if (starts.length === 0) return [];
  const spans = starts.map((s) => s.span as string);
  const marks = spans.map(() => "?").join(", ");
  const exits = new Map(
    db.prepare(
      `SELECT span, ts, attrs ->> 'why' AS why, attrs ->> 'code' AS code,
              attrs ->> 'signal' AS signal, attrs ->> 'uptimeMs' AS uptime,
              attrs ->> 'calls' AS calls
       FROM records WHERE event = 'server.exit' AND ts >= ? AND span IN (${marks})`,
    ).all(since, ...spans).map((e) => [e.span as string, e]),
  );
  const counted = new Map(
    db.prepare(
      `SELECT parent, count(*) AS n FROM records
       WHERE event = 'call.start' AND ts >= ? AND parent IN (${marks}) GROUP BY parent`,
    ).all(since, ...spans).map((c) => [c.parent as string, c.n as number]),
  );
  return starts.map((s) => {
    const e = exits.get(s.span as string);
    return {
      instance: s.span as string,
      server: s.server as string,
      ...(typeof s.pid === "number" ? { pid: s.pid } : {}),
      ...(s.key ? { key: s.key as string } : {}),
      started: iso(s.ts),
      ...(e ? { ended: iso(e.ts) } : {}),
      ...(e && typeof e.uptime === "number" ? { uptimeMs: e.uptime } : {}),
      ...(e?.why ? { why: e.why as string } : {}),
      ...(e && typeof e.code === "number" ? { code: e.code } : {}),
      ...(e?.signal ? { signal: e.signal as string } : {}),
      calls: e && typeof e.calls === "number" ? e.calls : counted.get(s.span as string) ?? 0,
      ...(s.parent ? { daemon: s.parent as string } : {}),
    };
  });
}

/** One row of `errors`: one recurring failure. */
export interface ErrorRow {
  /** The message template, or for a record with an `error` attribute, that error's template. */
  template: string;
  count: number;
  level: "warn" | "error";
  first: string;
  last: string;
  /** Where it happened: `server.tool`, or the server, or the event. */
  where: string[];
  /** The latest occurrence: its message and span (for `--chain`). */
  example: { msg: string; span: string };
}

/** Warnings and errors grouped on their template, most frequent first. */
export function errorsView(db: DatabaseSync, since = 0, limit = 20): ErrorRow[] {
  return db.prepare(
    `SELECT coalesce(r.error_template, t.text) AS template, count(*) AS n, max(level_rank) AS rank,
            min(ts) AS first, max(ts) AS last,
            group_concat(DISTINCT coalesce(r.server || '.' || r.tool, r.server, r.event)) AS places,
            max(printf('%015d', ts) || char(9) || r.span || char(9) || r.msg) AS latest
     FROM records r JOIN templates t ON t.id = r.template
     WHERE r.level_rank >= 2 AND r.ts >= ?
     GROUP BY 1 ORDER BY n DESC, last DESC LIMIT ?`,
  ).all(since, limit).map((r) => {
    const [, span, ...msg] = String(r.latest).split("\t");
    return {
      template: r.template as string,
      count: r.n as number,
      level: r.rank === 3 ? "error" : "warn",
      first: iso(r.first),
      last: iso(r.last),
      where: String(r.places ?? "").split(",").filter(Boolean).sort(),
      example: { msg: msg.join("\t"), span },
    };
  });
}

/** One row of `sessions`: what one session or script run did. */
export interface SessionRow {
  /** The session key or run id; absent for calls made with neither. */
  session?: string;
  kind: "session" | "run" | "none";
  calls: number;
  errors: number;
  /** Total time in calls, ms. */
  ms: number;
  first: string;
  last: string;
  /** `server.tool` names called. */
  tools: string[];
}

/** Calls grouped by the run or session that made them, most recent first. */
export function sessionsView(db: DatabaseSync, since = 0, limit = 50): SessionRow[] {
  return db.prepare(
    `SELECT coalesce(run, session) AS id, CASE WHEN run IS NOT NULL THEN 'run'
              WHEN session IS NOT NULL THEN 'session' ELSE 'none' END AS kind,
            count(*) AS calls, coalesce(sum(ok = 0), 0) AS errors, coalesce(sum(ms), 0) AS ms,
            min(ts) AS first, max(ts) AS last, group_concat(DISTINCT server || '.' || tool) AS tools
     FROM records WHERE event = 'call.end' AND ts >= ?
     GROUP BY 1, 2 ORDER BY last DESC LIMIT ?`,
  ).all(since, limit).map((r) => ({
    ...(r.id ? { session: r.id as string } : {}),
    kind: r.kind as SessionRow["kind"],
    calls: r.calls as number,
    errors: r.errors as number,
    ms: Math.round((r.ms as number) * 10) / 10,
    first: iso(r.first),
    last: iso(r.last),
    tools: String(r.tools ?? "").split(",").filter(Boolean).sort(),
  }));
}

/** `volume`: records per level per hour, and what the logs cost on disk. */
export interface VolumeView {
  hours: {
    hour: string;
    debug: number;
    info: number;
    warn: number;
    error: number;
    total: number;
  }[];
  disk: { files: number; fileBytes: number; indexBytes: number };
}

/**
 * Records per level per UTC hour, oldest first, and the bytes of the log
 * files and the index.
 *
 * @param dir The logs directory (for file sizes).
 */
export function volumeView(db: DatabaseSync, dir: string, since = 0): VolumeView {
  const hours = db.prepare(
    `SELECT ts / 3600000 AS hour, sum(level_rank = 0) AS debug, sum(level_rank = 1) AS info,
            sum(level_rank = 2) AS warn, sum(level_rank = 3) AS error, count(*) AS total
     FROM records WHERE ts >= ? GROUP BY 1 ORDER BY 1`,
  ).all(since).map((r) => ({
    hour: new Date((r.hour as number) * 3_600_000).toISOString().slice(0, 13) + ":00Z",
    debug: r.debug as number,
    info: r.info as number,
    warn: r.warn as number,
    error: r.error as number,
    total: r.total as number,
  }));
  let fileBytes = 0;
  const files = listLogFiles(dir);
  for (const name of files) fileBytes += size(join(dir, name));
  const indexBytes = size(join(dir, "index.db")) + size(join(dir, "index.db-journal"));
  return { hours, disk: { files: files.length, fileBytes, indexBytes } };
}

function size(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
}

function iso(ts: unknown): string {
  return new Date(ts as number).toISOString();
}
