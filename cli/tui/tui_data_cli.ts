/**
 * The browser's data ({@link TuiData}) read through the operations the
 * command line runs, by their own handlers: `ls` for the namespaces, `types`
 * for a namespace's tools, `log`, `stats`, `status` and `session ls` for the
 * grids; the storage grid measures the folders config/paths.ts names. Each
 * request gets a context of its own (the command's options, output captured,
 * the request's signal), so `r` reads the configuration and the cache again
 * and nothing a handler says lands on the screen being drawn.
 *
 * @module
 */

import { CliContext } from "../context.ts";
import type { ContextOptions } from "../context_settings.ts";
import { memoryIo } from "../../core/io.ts";
import { humanMs } from "../table.ts";
import { type Grid, gridOf, type Row } from "./grid.ts";
import type { GridQuery, GridView, NamespaceItem, ToolItem, TuiData } from "./tui_data.ts";
import { mergeSessions, type SessionEntry, type SessionSource } from "./session_sources.ts";
import { storageRows } from "./storage.ts";
import { followDaemon } from "./live_feed.ts";
import type { LsOutput } from "../../ops/ls.ts";
import type { TypesOutput } from "../../ops/types.ts";
import type { StatusOutput } from "../../ops/status.ts";
import type { LogRecord } from "../../logs/record.ts";
import type { InstanceRow } from "../../logs/stats.ts";

/** Records the log grid shows: the newest, oldest first. */
const LOG_ROWS = 500;

/**
 * The browser's data for the command line's context `ctx`.
 *
 * @param ctx The `tui` command's context: its configuration flags, session and environment.
 * @param sessionSources Who knows sessions (default: mcpx alone, {@link mcpxSessions}).
 */
export function cliData(
  ctx: CliContext,
  sessionSources?: readonly SessionSource[],
): TuiData {
  const contextFor = (signal: AbortSignal) =>
    new CliContext(ctx.optionsWith({ io: memoryIo(), signal } as Partial<ContextOptions>));
  const using = async <T>(signal: AbortSignal, run: (c: CliContext) => Promise<T>): Promise<T> => {
    const c = contextFor(signal);
    try {
      return await run(c);
    } finally {
      await c.close();
    }
  };
  const sources = sessionSources ?? [mcpxSessions(contextFor)];
  return {
    namespaces: (signal) =>
      using(signal, async (c) => {
        const { handle } = await import("../discovery/ls.ts");
        const output = (await handle(c, {} as never)).value as LsOutput;
        // No configuration: the pane says where mcpx looked and how to make one, as `ls` does.
        if (output.namespaces.length === 0 && !output.config) {
          const { noConfigMessage } = await import("../../config/discover.ts");
          throw new Error(`No servers: ${noConfigMessage(output.searched ?? [], c.cwd)}.`);
        }
        return output.namespaces.map((r): NamespaceItem => ({
          namespace: r.namespace,
          tools: r.tools,
          state: r.state,
          description: r.description ?? "",
          ...(r.error ? { error: r.error } : {}),
        }));
      }),
    tools: (namespace, signal) =>
      using(signal, async (c) => {
        const { handle } = await import("../discovery/types.ts");
        const { value } = await handle(c, { targets: [namespace] } as never);
        const tools = (value as TypesOutput).namespaces.flatMap((n) => n.tools);
        return tools.map((t): ToolItem => ({
          name: t.function.slice(t.function.indexOf(".") + 1),
          tool: t.tool,
          description: t.description,
          signature: t.declaration ?? JSON.stringify(t.inputSchema, null, 2),
        }));
      }),
    grid: (view, query, signal) => using(signal, (c) => queryGrid(view, query, c, sources, signal)),
    follow: (listener, onMode, signal) =>
      followDaemon({
        socket: () => using(signal, (c) => c.existingDaemonSocket()),
        listener,
        onMode,
        signal,
      }),
  };
}

async function queryGrid(
  view: GridView,
  query: GridQuery,
  c: CliContext,
  sessions: readonly SessionSource[],
  signal: AbortSignal,
): Promise<Grid> {
  switch (view) {
    case "log":
      return await logGrid(c);
    case "stats":
      return await statsGrid(c, query);
    case "servers":
      return await serversGrid(c);
    case "sessions": {
      const { rows, problems } = await mergeSessions(sessions, signal);
      return gridOf(
        rows,
        [
          { key: "session", max: 24 },
          { key: "kind", max: 8 },
          { key: "calls", align: "right" },
          { key: "errors", align: "right" },
          { key: "servers", max: 30 },
          { key: "last", max: 24 },
          { key: "sources" },
        ],
        problems.length ? problems.join("; ") : rows.length ? undefined : "no sessions yet",
      );
    }
    case "storage": {
      const rows = await storageRows({
        stateDir: c.paths().stateDir,
        cacheDir: c.paths().cacheDir,
        logsDir: await c.logsDir(),
      });
      const total = rows.reduce((sum, r) => sum + r.bytes, 0);
      const { humanBytes } = await import("./storage.ts");
      return gridOf(rows, [
        { key: "what", max: 34 },
        { key: "size", align: "right" },
        { key: "files", align: "right" },
        { key: "path" },
      ], `${humanBytes(total)} in all`);
    }
  }
}

/** The log's newest records, oldest first (`mcpx log -n 500`). */
async function logGrid(c: CliContext): Promise<Grid> {
  const { handle } = await import("../logs/log.ts");
  const outcome = await handle(c, { args: [], limit: String(LOG_ROWS) } as never);
  const records = outcome.kind === "exit"
    ? []
    : (outcome.value as { records: LogRecord[] }).records;
  const rows = records.map((r) => ({
    time: localClock(r.time),
    level: r.level,
    event: r.event,
    server: r.attrs.server,
    msg: r.msg,
    at: r.time,
    id: r.id,
    span: r.span,
    ...(r.parent ? { parent: r.parent } : {}),
    ...r.attrs,
  }));
  return gridOf(rows, [
    { key: "time", max: 12 },
    { key: "level", max: 5 },
    { key: "event", max: 18 },
    { key: "server", max: 16 },
    { key: "msg" },
  ], rows.length ? undefined : "no records yet");
}

/** One `mcpx stats` view, its rows' own fields as columns. */
async function statsGrid(c: CliContext, query: GridQuery): Promise<Grid> {
  const { handle } = await import("../logs/stats.ts");
  const view = query.dimension ?? "calls";
  const { value } = await handle(c, { view } as never);
  const rows = "rows" in value ? value.rows as Row[] : value.hours as Row[];
  return gridOf(rows, undefined, rows.length ? undefined : `nothing recorded for ${view} yet`);
}

/**
 * Server processes: the live ones (`mcpx status`: pid, uptime, holders,
 * calls) first, then the ones the log saw stop, with why
 * (`mcpx stats instances`).
 */
async function serversGrid(c: CliContext): Promise<Grid> {
  const { handle } = await import("../daemon/status.ts");
  const status = (await handle(c, {} as never)).value as StatusOutput;
  const rows: Row[] = [];
  const live = new Set<number>();
  for (const server of status.servers) {
    for (const i of server.instances) {
      if (i.pid) live.add(i.pid);
      rows.push({
        server: server.namespace,
        pid: i.pid ?? "remote",
        state: "running",
        uptime: humanMs(i.uptimeMs),
        calls: i.calls,
        holders: i.holders,
        why: i.lastError ?? "",
        key: i.key,
        ...(i.stderrTail ? { stderr: i.stderrTail } : {}),
      });
    }
    if (server.instances.length === 0 && (server.failure || server.cacheError)) {
      const failure = server.failure ?? server.cacheError!;
      rows.push({
        server: server.namespace,
        pid: "-",
        state: server.state,
        why: failure.message,
        ...("stderrTail" in failure && failure.stderrTail ? { stderr: failure.stderrTail } : {}),
      });
    }
  }
  const { handle: stats } = await import("../logs/stats.ts");
  const ended = await stats(c, { view: "instances", limit: "100" } as never)
    .then((a) => ("rows" in a.value ? a.value.rows : []) as InstanceRow[])
    .catch(() => [] as InstanceRow[]);
  // The log is every configuration's: only this one's servers belong in its view.
  const mine = new Set(status.servers.flatMap((s) => [s.namespace, s.server]));
  for (const i of ended) {
    if (!i.ended || (i.pid !== undefined && live.has(i.pid)) || !mine.has(i.server)) continue;
    rows.push({
      server: i.server,
      pid: i.pid ?? "-",
      state: "stopped",
      uptime: i.uptimeMs === undefined ? "" : humanMs(i.uptimeMs),
      calls: i.calls,
      why: [i.why, i.code !== undefined ? `code ${i.code}` : "", i.signal ?? ""].filter(Boolean)
        .join(", "),
      started: i.started,
      ended: i.ended,
    });
  }
  return gridOf(
    rows,
    [
      { key: "server", max: 20 },
      { key: "pid", align: "right" },
      { key: "state", max: 10 },
      { key: "uptime", align: "right" },
      { key: "calls", align: "right" },
      { key: "why" },
    ],
    rows.length
      ? undefined
      : status.daemon
      ? "no server processes yet"
      : "no daemon is running; the log has no server processes yet",
  );
}

/**
 * mcpx's half of the sessions view: named sessions (`mcpx session ls`: their
 * live servers, age) merged with the sessions and runs the log saw calls in
 * (`mcpx stats sessions`: calls, errors, tools, last call).
 */
export function mcpxSessions(contextFor: (signal: AbortSignal) => CliContext): SessionSource {
  return {
    name: "mcpx",
    async sessions(signal) {
      const c = contextFor(signal);
      try {
        const entries = new Map<string, SessionEntry>();
        const { handle: stats } = await import("../logs/stats.ts");
        const seen = await stats(c, { view: "sessions", limit: "200" } as never);
        for (const row of ("rows" in seen.value ? seen.value.rows : []) as Row[]) {
          const id = (row.session as string | undefined) ?? "(none)";
          const tools = (row.tools as string[] | undefined) ?? [];
          entries.set(id, {
            session: id,
            kind: row.kind,
            calls: row.calls,
            errors: row.errors,
            servers: [...new Set(tools.map((t) => t.split(".")[0]))].join(","),
            last: row.last,
            tools,
          });
        }
        const { handle: session } = await import("../daemon/session.ts");
        const named = await session(c, { action: "ls", rest: [] } as never)
          .then((a) => "value" in a && "sessions" in a.value ? a.value.sessions : [])
          .catch(() => []);
        for (const s of named) {
          const id = String(s.name);
          const live = s.live.join(",");
          const entry = entries.get(id) ?? { session: id, kind: "named", calls: 0, errors: 0 };
          entries.set(id, {
            ...entry,
            kind: "named",
            servers: live || entry.servers || "",
            created: s.createdAt,
            lastUsed: s.lastUsedAt,
          });
        }
        return [...entries.values()];
      } finally {
        await c.close();
      }
    },
  };
}

/** `HH:MM:SS.mmm` of an ISO time, in local time. */
function localClock(ts: unknown): string {
  const date = new Date(String(ts));
  if (Number.isNaN(date.getTime())) return String(ts ?? "");
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${
    String(date.getMilliseconds()).padStart(3, "0")
  }`;
}
