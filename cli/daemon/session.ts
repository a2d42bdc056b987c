/**
 * `mcpx session new [--name N] [--ttl 30m] | ls | end <name>`: named
 * sessions, lease keys that outlive the process that made them (spec 000,
 * "Named, pinned and resumable sessions"; docs/sessions.md). A named
 * session's name is its session key: `--session <name>` on `call`, `run` and
 * `exec` rejoins it.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { UsageError } from "../../core/errors.ts";
import { parseDuration } from "../../config/duration.ts";
import { humanMs, renderTable } from "../table.ts";
import type { SessionRow } from "../../engine/engine.ts";
import { SESSION_NAME, sessionNameProblem } from "../../engine/sessions.ts";
import type { InputOf } from "../../ops/op.ts";
import type { session } from "../../ops/engine_ops.ts";
import { ok, type Outcome } from "../../ops/outcome.ts";
import { postNotice } from "../../core/notice_queue.ts";
import type { SessionHit } from "../../logs/session_search.ts";
import { attach, type Attached, takeOverText } from "./session_attach.ts";

const USAGE = "`mcpx session new [--name N] [--ttl 30m]`, `mcpx session ls`, " +
  "`mcpx session end <name>`, `mcpx session search <words…>` or " +
  "`mcpx session attach <name> [--read-only | --take-over]`";

/** What one `mcpx session` action answers: the session made, the list, the one ended, the hits. */
type SessionAnswer =
  | SessionRow
  | { sessions: SessionRow[] }
  | { name: string; stopped: number }
  | { hits: SessionHit[] }
  | Attached;

/** `--json` prints `new` and `end` (acknowledgements) on one line and `ls` indented. */
export function jsonLine(input: InputOf<typeof session>): boolean {
  return input.action !== "ls" && input.action !== "list" && input.action !== "search";
}

/**
 * Runs one `mcpx session` action.
 *
 * @returns `ok` with the session made (new), `{ sessions }` (ls) or `{ name, stopped }` (end).
 * @throws {UsageError} For a missing or unknown action, a stray argument, a bad `--ttl` or `--name`.
 */
export async function handle(
  ctx: CliContext,
  options: InputOf<typeof session>,
): Promise<Outcome<SessionAnswer>> {
  const { action, rest } = options;
  const extra = (max: number) => {
    if (rest.length > max) {
      throw new UsageError(`unexpected argument "${rest[max]}" to \`mcpx session ${action}\``);
    }
  };
  switch (action) {
    case "new":
      extra(0);
      return ok(await create(ctx, options));
    case "ls":
    case "list":
      extra(0);
      return ok({ sessions: await list(ctx) });
    case "end": {
      extra(1);
      // The session's name as a word (`mcpx session end s1`) or as `name` (a tool's input).
      const name = rest[0] ?? options.name;
      if (rest[0] !== undefined && options.name !== undefined && rest[0] !== options.name) {
        throw new UsageError(
          `two names given, "${rest[0]}" and --name "${options.name}"; give one`,
        );
      }
      if (!name) throw new UsageError("name the session: `mcpx session end <name>`");
      const { stopped } = await ctx.request<{ stopped: number }>("sessionEnd", { name });
      return ok({ name, stopped });
    }
    case "search": {
      if (rest.length === 0) {
        throw new UsageError(
          "say what to look for: `mcpx session search <words…>` (a name, a server, a tool, " +
            "an ISO date such as 2026-10-01, a trace id)",
        );
      }
      return ok({ hits: await search(ctx, rest) });
    }
    case "attach": {
      extra(1);
      const name = rest[0] ?? options.name;
      if (!name) {
        throw new UsageError("name the session: `mcpx session attach <name> [--take-over]`");
      }
      return await attach(ctx, name, options);
    }
    case undefined:
      throw new UsageError(`say what to do: ${USAGE}`);
    default:
      throw new UsageError(`unknown action "${action}"; use ${USAGE}`);
  }
}

/**
 * The terminal's rendering, by the document's shape: the new session's name;
 * the sessions as a table (age, TTL and idle time from now); what `end` stopped.
 */
export function text(value: SessionAnswer): string {
  if ("sessions" in value) return listText(value.sessions);
  if ("hits" in value) return hitsText(value.hits);
  if ("token" in value) return takeOverText(value);
  if ("stopped" in value) {
    const { name, stopped } = value;
    return `session ${name} ended; ${stopped} instance${stopped === 1 ? "" : "s"} stopped\n`;
  }
  return `${value.name}\n`;
}

async function create(ctx: CliContext, options: Record<string, unknown>): Promise<SessionRow> {
  let ttlMs: number | undefined;
  if (typeof options.ttl === "string") {
    try {
      ttlMs = parseDuration(options.ttl);
    } catch (error) {
      throw new UsageError(`--ttl: ${(error as Error).message}`);
    }
    if (ttlMs === 0) throw new UsageError(`--ttl must be more than 0, e.g. --ttl 30m`);
  }
  const name = typeof options.name === "string" ? options.name : undefined;
  if (name === "") throw new UsageError("--name needs a value: `--name login-flow`");
  if (name !== undefined && !SESSION_NAME.test(name)) {
    throw new UsageError(sessionNameProblem(name));
  }
  return await ctx.request<SessionRow>("sessionNew", {
    ...(name === undefined ? {} : { name }),
    ...(ttlMs ? { ttlMs } : {}),
  });
}

async function list(ctx: CliContext): Promise<SessionRow[]> {
  // A running daemon knows which sessions have live instances; without one
  // the records are read from its file (starting a daemon to list is waste).
  const { probeDaemon } = await import("../daemon_connect.ts");
  if (await probeDaemon(await ctx.existingDaemonSocket())) {
    return await ctx.request<SessionRow[]>("sessionList");
  }
  const { readSessionsFile, sessionsPath } = await import("../../engine/sessions.ts");
  const config = await ctx.config();
  const read = readSessionsFile(sessionsPath(ctx.paths().stateDir, config.fingerprint));
  // Said as `warning:` lines on stderr after the answer (cli/command_line.ts `printPosted`).
  for (const problem of read?.problems ?? []) {
    postNotice({ code: "state-damaged", message: problem });
  }
  return (read?.sessions ?? []).map((s) => ({ ...s, live: [] }));
}

/**
 * The sessions matching `words`, best first: the log index's calls (ingested
 * first, rebuilt once when damaged) merged with the named sessions' records.
 */
async function search(ctx: CliContext, words: string[]): Promise<SessionHit[]> {
  const named = await list(ctx);
  const { openIngested, rebuildWhenDamaged } = await import("../../logs/ingest.ts");
  const { rankSessions, sessionDocs, sessionsOfTraceId } = await import(
    "../../logs/session_search.ts"
  );
  const dir = await ctx.logsDir();
  return await rebuildWhenDamaged(dir, () => {
    const { db } = openIngested(dir);
    try {
      const traces = new Map(words.map((w) => [w, sessionsOfTraceId(db, w)]));
      return Promise.resolve(rankSessions(sessionDocs(db, named), words, traces));
    } finally {
      db.close();
    }
  });
}

function hitsText(hits: SessionHit[]): string {
  if (hits.length === 0) {
    return "no session matches; `mcpx session ls` lists the named ones, `mcpx stats sessions` " +
      "every session the log has calls for\n";
  }
  return renderTable(
    ["SESSION", "KIND", "CALLS", "LAST", "SERVERS", "MATCHED"],
    hits.map((h) => [
      h.session,
      h.kind,
      String(h.calls),
      h.last ?? "-",
      h.servers.join(",") || "-",
      h.matched.join("; "),
    ]),
  );
}

function listText(rows: SessionRow[]): string {
  if (rows.length === 0) return "no named sessions; `mcpx session new --name <name>` makes one\n";
  const now = Date.now();
  return renderTable(
    ["NAME", "AGE", "TTL", "SERVERS", "LAST USED"],
    rows.map((s) => {
      const idle = now - Date.parse(s.lastUsedAt);
      return [
        s.name,
        humanMs(now - Date.parse(s.createdAt)),
        s.ttlMs ? `${humanMs(s.ttlMs)} (ends in ${humanMs(Math.max(0, s.ttlMs - idle))})` : "-",
        s.live.join(",") || "-",
        `${humanMs(idle)} ago`,
      ];
    }),
  );
}
