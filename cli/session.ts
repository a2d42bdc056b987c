/**
 * `mcpx session new [--name N] [--ttl 30m] | ls | end <name>`: named
 * sessions, lease keys that outlive the process that made them (spec 000,
 * "Named, pinned and resumable sessions"; docs/sessions.md). A named
 * session's name is its session key: `--session <name>` on `call`, `run` and
 * `exec` rejoins it.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { UsageError } from "../core/errors.ts";
import { parseDuration } from "../config/duration.ts";
import { humanMs, renderTable } from "./table.ts";
import type { SessionRow } from "../engine/engine.ts";
import { SESSION_NAME, sessionNameProblem } from "../engine/sessions.ts";
import type { InputOf } from "../ops/op.ts";
import type { session } from "../ops/engine_ops.ts";
import { printJson, printJsonLine } from "./json_out.ts";

const USAGE = "`mcpx session new [--name N] [--ttl 30m]`, `mcpx session ls` or " +
  "`mcpx session end <name>`";

export async function run(
  ctx: CliContext,
  options: InputOf<typeof session>,
): Promise<number> {
  const { action, rest } = options;
  const extra = (max: number) => {
    if (rest.length > max) {
      throw new UsageError(`unexpected argument "${rest[max]}" to \`mcpx session ${action}\``);
    }
  };
  switch (action) {
    case "new":
      extra(0);
      return await create(ctx, options);
    case "ls":
    case "list":
      extra(0);
      return await list(ctx);
    case "end": {
      extra(1);
      if (!rest[0]) throw new UsageError("name the session: `mcpx session end <name>`");
      return await end(ctx, rest[0]);
    }
    case undefined:
      throw new UsageError(`say what to do: ${USAGE}`);
    default:
      throw new UsageError(`unknown action "${action}"; use ${USAGE}`);
  }
}

async function create(ctx: CliContext, options: Record<string, unknown>): Promise<number> {
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
  const session = await ctx.request<SessionRow>("sessionNew", {
    ...(name === undefined ? {} : { name }),
    ...(ttlMs ? { ttlMs } : {}),
  });
  if (await ctx.json()) printJsonLine(ctx.io, session);
  else ctx.io.out(`${session.name}\n`);
  return 0;
}

async function list(ctx: CliContext): Promise<number> {
  // A running daemon knows which sessions have live instances; without one
  // the records are read from its file (starting a daemon to list is waste).
  const { probeDaemon } = await import("./daemon_connect.ts");
  let rows: SessionRow[];
  if (await probeDaemon(await ctx.existingDaemonSocket())) {
    rows = await ctx.request<SessionRow[]>("sessionList");
  } else {
    const { readSessionsFile, sessionsPath } = await import("../engine/sessions.ts");
    const config = await ctx.config();
    const read = readSessionsFile(sessionsPath(ctx.paths().stateDir, config.fingerprint));
    for (const problem of read?.problems ?? []) ctx.io.err(`warning: ${problem}\n`);
    rows = (read?.sessions ?? []).map((s) => ({ ...s, live: [] }));
  }
  if (await ctx.json()) {
    printJson(ctx.io, { sessions: rows });
    return 0;
  }
  if (rows.length === 0) {
    ctx.io.out("no named sessions; `mcpx session new --name <name>` makes one\n");
    return 0;
  }
  const now = Date.now();
  ctx.io.out(renderTable(
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
  ));
  return 0;
}

async function end(ctx: CliContext, name: string): Promise<number> {
  const { stopped } = await ctx.request<{ stopped: number }>("sessionEnd", { name });
  if (await ctx.json()) printJsonLine(ctx.io, { name, stopped });
  else {ctx.io.out(
      `session ${name} ended; ${stopped} instance${stopped === 1 ? "" : "s"} stopped\n`,
    );}
  return 0;
}
