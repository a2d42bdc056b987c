/**
 * What the engine ops answer (ops/engine_ops.ts): the documents
 * `mcpx --json call|session|status|refresh|restart|trust|untrust|daemons|stop`
 * print, field for field. tests/json_output_test.ts checks each against what
 * the command prints on real servers.
 *
 * @module
 */

import * as z from "zod";
import { Attacher, SESSION_ATTACH_FIELDS } from "./route_outputs.ts";
import {
  DroppedRecords,
  JsonObject,
  Runnable,
  ServerUnavailable,
  Starting,
} from "./output_shapes.ts";

/**
 * A tool's result as its server sent it: MCP's `CallToolResult` (MCP
 * 2025-06-18, "Tools": `content`, `structuredContent`, `isError`, `_meta`),
 * passed on unchanged, so open to what a server adds.
 */
export const CallOutput = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })).describe("the result's content blocks"),
  structuredContent: JsonObject.optional(),
  isError: z.boolean().optional().describe("the tool reported an error (mcpx exits 1)"),
  _meta: JsonObject.optional(),
});

/** A named session (engine/sessions.ts `NamedSession`, engine/engine.ts `SessionRow`). */
export const SessionRow = z.strictObject({
  name: z.string().describe("the session key: --session <name> rejoins it"),
  createdAt: z.string().describe("ISO time it was made"),
  lastUsedAt: z.string().describe("ISO time of its last call"),
  ttlMs: z.number().optional().describe("ends after this long without a call, ms"),
  namespaces: z.array(z.string()).describe("namespaces that had an instance for it"),
  live: z.array(z.string()).describe("namespaces with a live instance for it now"),
  ...SESSION_ATTACH_FIELDS,
});

/** `mcpx --json session new` (one line): the session made. */
export const SessionNewOutput = SessionRow;
/** `mcpx --json session ls`. */
export const SessionListOutput = z.strictObject({ sessions: z.array(SessionRow) });
/** `mcpx --json session end <name>` (one line). */
export const SessionEndOutput = z.strictObject({
  name: z.string(),
  stopped: z.number().int().describe("instances stopped"),
});

/** One session `mcpx session search` found (logs/session_search.ts `SessionHit`). */
export const SessionHit = z.strictObject({
  session: z.string().describe("the session key (a named session's name) or the run id"),
  kind: z.enum(["named", "session", "run"]).describe(
    "named: made by session new; session: a key seen in calls; run: a script run",
  ),
  servers: z.array(z.string()).describe("namespaces called under it"),
  tools: z.array(z.string()).describe("namespace.tool called under it"),
  calls: z.number().int().describe("calls the log index holds under it"),
  first: z.string().optional().describe("ISO time of its first call or its creation"),
  last: z.string().optional().describe("ISO time of its last call or use"),
  ttlMs: z.number().optional().describe("a named session's ttl, ms"),
  score: z.number().describe("higher ranks first"),
  matched: z.array(z.string()).describe("each word that scored and where: `fs: server`"),
});
/** `mcpx --json session search <words>`: the sessions found, best first. */
export const SessionSearchOutput = z.strictObject({ hits: z.array(SessionHit) });

/** `mcpx --json session attach <name> --take-over` (one line): the attachment to export. */
export const SessionAttachOutput = z.strictObject({
  session: z.string(),
  mode: z.enum(["read", "write"]),
  token: z.string().describe("export it as MCPX_ATTACH: calls under the session need it"),
  since: z.string().describe("ISO time it attached"),
  previous: Attacher.optional().describe("the writer the take-over replaced"),
});

/** `mcpx --json session new|ls|end|search|attach`: the document of the action. */
export const SessionOutput = z.union([
  SessionNewOutput,
  SessionListOutput,
  SessionEndOutput,
  SessionSearchOutput,
  SessionAttachOutput,
]);

/** One server's row of `mcpx status` (engine/status_row.ts `StatusRow`). */
export const StatusRow = z.strictObject({
  namespace: z.string(),
  server: z.string(),
  poolId: z.string().describe("namespaces with the same poolId share processes"),
  transport: z.string().describe("stdio, http or sse"),
  sharing: z.string().describe("shared or exclusive"),
  scope: z.string().describe("what an instance is keyed by"),
  state: z.enum(["live", "idle", "starting", "error", "disabled", "untrusted", "refused"]),
  instances: z.array(z.strictObject({
    id: z.string(),
    pid: z.number().int().optional().describe("absent for a remote server"),
    key: z.string().describe("the scope key it serves"),
    holders: z.number().int(),
    active: z.number().int().describe("calls in flight"),
    uptimeMs: z.number(),
    calls: z.number().int(),
    protocol: z.string().optional().describe(
      "the protocol revision agreed with the server (2025-11-25, 2026-07-28, …)",
    ),
    lastError: z.string().optional(),
    stderrTail: z.string().optional(),
  })),
  failure: z.strictObject({
    message: z.string(),
    count: z.number().int().describe("failed starts in a row"),
    retryInMs: z.number().describe("when the next start is allowed, ms from now"),
    stderrTail: z.string().optional(),
  }).optional().describe("the daemon's last start failure"),
  cacheError: z.strictObject({
    message: z.string(),
    at: z.string(),
    stderr: z.string().optional(),
    count: z.number().int().optional(),
    retryAt: z.string().optional(),
  }).optional().describe("the schema cache's last listing failure"),
  unavailable: ServerUnavailable.optional(),
  starting: Starting.optional().describe(
    "a start in progress (state starting while nothing is live)",
  ),
  sharedWith: z.array(z.string()).optional().describe("other namespaces served by its pool"),
});

/** `mcpx --json status`. */
export const StatusOutput = z.strictObject({
  daemon: z.boolean().describe("a daemon answered; false: rows from the schema cache alone"),
  config: z.string().nullable(),
  servers: z.array(StatusRow),
  logDropped: DroppedRecords.optional().describe("records the daemon could not write"),
  refused: z.strictObject({
    directory: z.string(),
    message: z.string().describe("what is wrong with it and the fix"),
  }).optional().describe(
    "the daemon's socket directory is not the user's alone, so no daemon is reached or started",
  ),
});

/** One server's answer to a listing (engine/tool_listing.ts `ListResult`). */
export const ListResult = z.strictObject({
  tools: z.number().int().optional().describe("tools listed"),
  error: z.string().optional().describe("why the listing failed"),
  listedBy: z.strictObject({
    pid: z.number().int().optional(),
    startedAt: z.string(),
  }).optional().describe("listed through a process already running, started then"),
  starting: Starting.optional().describe("still listing when the wait ran out; it goes on"),
});

/** `mcpx --json refresh` (exit 1 when any listing failed). */
export const RefreshOutput = z.strictObject({
  servers: z.record(z.string(), ListResult).describe("by server name"),
});

/** `mcpx --json restart` (one line). */
export const RestartOutput = z.strictObject({
  namespace: z.string(),
  session: z.string().optional().describe("--session: only this session's instances"),
  stopped: z.number().int().describe("instances stopped"),
});

/** `mcpx --json trust [file]`: what the file's servers may now run. */
export const TrustFileOutput = z.strictObject({
  file: z.string(),
  realPath: z.string().describe("the file with symlinks resolved: what is recorded"),
  recorded: z.boolean().describe("false: one of the user's own files, trusted without a record"),
  servers: z.array(z.strictObject({
    name: z.string(),
    runs: z.string().describe("what it runs, one line"),
    runnable: Runnable,
  })),
  settings: JsonObject.describe("the file's settings sections that now apply"),
  declared: z.array(z.strictObject({
    kind: z.string().describe("adapter or API"),
    name: z.string(),
    file: z.string().describe("the declaration file"),
    runs: z.string().describe("what it runs, or where its requests go, one line"),
  })).describe("the adapters and APIs the file's own paths.adapters and paths.apis declare"),
});

/** `mcpx --json trust --list`. */
export const TrustListOutput = z.strictObject({
  files: z.array(z.strictObject({
    file: z.string().describe("the real path recorded"),
    trustedAt: z.string(),
    servers: z.array(z.string()),
    state: z.enum(["current", "changed", "missing", "unreadable"]),
    changed: z.array(z.string()).optional().describe("servers that run something else now"),
    settingsChanged: z.boolean().optional(),
    problem: z.string().optional().describe("unreadable: why"),
  })),
  problems: z.array(z.string()).describe("what could not be read of the trust store"),
});

/** `mcpx --json trust`: the file trusted, or with `--list` every trusted file. */
export const TrustOutput = z.union([TrustFileOutput, TrustListOutput]);

/** `mcpx --json untrust`. */
export const UntrustOutput = z.strictObject({
  file: z.string(),
  realPath: z.string().describe("the key removed from the trust store"),
  removed: z.literal(true),
});

/**
 * `mcpx daemon upgrade`'s document (daemon/upgrade.ts `UpgradeResult`); `mcpx daemon` itself
 * prints none: the daemon runs in the foreground until stopped.
 */
export const DaemonOutput = z.strictObject({
  oldPid: z.number().int().describe("the daemon replaced"),
  newPid: z.number().int().describe("the daemon now serving"),
  version: z.string().describe("the new daemon's mcpx version"),
  kept: z.number().int().min(0).describe("stdio servers handed over, still the same processes"),
  stopped: z.number().int().min(0).describe(
    "instances that could not be handed over (remotes), stopped; started again on first use",
  ),
  failed: z.array(
    z.strictObject({ server: z.string(), pid: z.number().int().optional(), error: z.string() }),
  )
    .describe("servers the new daemon could not adopt (their process groups were ended)"),
  longestWaitMs: z.number().min(0).describe("the longest a request waited during the upgrade, ms"),
  waited: z.number().int().min(0).describe("requests that waited"),
  tookMs: z.number().min(0).describe("from the request until the new daemon served, ms"),
});

/** A live daemon (wire/locate.ts `DaemonRecord`). */
const DaemonRecord = z.strictObject({
  fingerprint: z.string(),
  pid: z.number().int(),
  socket: z.string(),
  configPath: z.string().nullable(),
  contentHash: z.string().optional(),
  version: z.string(),
  mode: z.enum(["auto", "foreground"]),
  startedAt: z.string(),
});

/** `mcpx --json daemons`. */
export const DaemonsOutput = z.strictObject({ daemons: z.array(DaemonRecord) });

/** `mcpx --json stop` (one line). */
export const StopOutput = z.strictObject({
  stopped: z.number().int().describe("daemons stopped"),
  orphans: z.number().int().optional().describe("servers ended that a dead daemon left"),
  front: z.literal(true).optional().describe(
    "with --all: the front process (what warm commands are relayed to) was asked to end",
  ),
});
