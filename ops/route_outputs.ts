/**
 * What the daemon's routes answer (inside the wire's `{ ok: true, result }`),
 * as zod schemas: each mirrors the engine's own type of that answer, and
 * ops/routes_test.ts holds them equal (and checks real answers against them),
 * so the routes' declared outputs cannot drift from what the handlers return.
 *
 * @module
 */

import * as z from "zod";
import { Starting } from "./output_shapes.ts";

const count = z.number().int().min(0);
/** An ISO 8601 time. */
const isoTime = z.string();

/** logs/writer.ts `DroppedRecords` with its directory (engine/log.ts `droppedRecords()`). */
const DroppedRecords = z.object({
  records: count,
  since: isoTime,
  last: isoTime,
  problem: z.enum(["no-space", "quota", "read-only", "permission"]).optional(),
  error: z.string(),
  dir: z.string(),
});

/** `health`: who this daemon is (cli/daemon_connect.ts `DaemonHealth` reads it). */
export const HealthOutput = z.object({
  version: z.string(),
  pid: z.number().int(),
  fingerprint: z.string(),
  configPath: z.string().nullable(),
  mode: z.enum(["auto", "foreground", "inline"]),
  startedAt: isoTime,
  stopping: z.boolean(),
  trustCheck: z.boolean(),
  logDropped: DroppedRecords.optional(),
});

/** `live`: per namespace, its live instances and its last start failure's message. */
export const LiveOutput = z.record(
  z.string(),
  z.object({ live: count, failure: z.string().optional() }),
);

/** engine/starting.ts `StartingRow`. */
export const StartingRow = z.object({
  server: z.string(),
  namespace: z.string(),
  key: z.string(),
  elapsedMs: z.number(),
  allowanceMs: z.number(),
  bound: z.enum(["startTimeout", "firstStartTimeout"]),
  pid: z.number().int().optional(),
  phase: z.enum(["installing", "starting"]),
  runner: z.string().optional(),
});

/** config/runs_of.ts `Runnable`. */
const Runnable = z.object({
  aliasOf: z.string().optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  transport: z.string().optional(),
  auth: z.object({ type: z.string(), fields: z.record(z.string(), z.string()) }).optional(),
});

/** config/types.ts `ServerUnavailable`. */
const ServerUnavailable = z.discriminatedUnion("code", [
  z.object({
    code: z.literal("unset-variable"),
    message: z.string(),
    variables: z.array(z.string()),
  }),
  z.object({
    code: z.literal("untrusted"),
    message: z.string(),
    file: z.string(),
    trustCommand: z.string(),
    runs: z.string(),
    runnable: Runnable,
    reason: z.enum(["new-file", "new-server", "changed"]),
    /** Never set (only `unset-variable` names variables). */
    variables: z.never().optional(),
  }),
]);

/** engine/status_row.ts `StatusRow`: one row of `mcpx status`. */
export const StatusRow = z.object({
  namespace: z.string(),
  server: z.string(),
  poolId: z.string(),
  transport: z.string(),
  sharing: z.string(),
  scope: z.string(),
  state: z.enum(["live", "idle", "starting", "error", "disabled", "untrusted", "refused"]),
  instances: z.array(z.object({
    id: z.string(),
    pid: z.number().int().optional(),
    key: z.string(),
    holders: count,
    active: count,
    uptimeMs: z.number(),
    calls: count,
    protocol: z.string().optional().describe("the protocol revision agreed with the server"),
    lastError: z.string().optional(),
    stderrTail: z.string().optional(),
  })),
  failure: z.object({
    message: z.string(),
    count: count,
    retryInMs: z.number(),
    stderrTail: z.string().optional(),
  }).optional(),
  cacheError: z.object({
    message: z.string(),
    at: isoTime,
    stderr: z.string().optional(),
    count: count.optional(),
    retryAt: isoTime.optional(),
  }).optional(),
  unavailable: ServerUnavailable.optional(),
  starting: Starting.optional(),
  sharedWith: z.array(z.string()).optional(),
});

/** wire/lease_waits.ts `Holder`. */
const Holder = z.object({
  run: z.string().optional(),
  pid: z.number().int().optional(),
  since: z.number(),
});

/** wire/lease_waits.ts `LeaseWait`: one caller waiting for an instance others hold. */
export const LeaseWait = z.object({
  id: z.number().int(),
  token: z.string().optional(),
  run: z.string().optional(),
  pid: z.number().int().optional(),
  namespace: z.string(),
  server: z.string(),
  key: z.string(),
  scope: z.string().optional(),
  since: z.number(),
  limitMs: z.number(),
  setting: z.string(),
  holders: z.array(Holder),
  full: z.object({ max: z.number().int() }).optional(),
});

/** engine/tool_listing.ts `ListResult`: one server's answer to `list`. */
export const ListResult = z.object({
  tools: count.optional(),
  error: z.string().optional(),
  listedBy: z.object({ pid: z.number().int().optional(), startedAt: isoTime }).optional(),
  starting: Starting.optional(),
});

/** Who made or attached to a session (engine/session_attach.ts `Attacher`). */
export const Attacher = z.object({
  pid: z.number().int().optional(),
  user: z.string().optional(),
  parentSession: z.string().optional(),
  run: z.string().optional(),
});

/** What a session row says of who made it and who is attached to it (decision 0085). */
export const SESSION_ATTACH_FIELDS = {
  owner: Attacher.optional().describe("who made it: for sessions.attach owner-only"),
  attached: z.array(z.object({
    mode: z.enum(["read", "write"]),
    by: Attacher,
    since: z.string(),
  })).optional().describe("who is attached now (session attach): the writer, then watchers"),
};

/** engine/engine.ts `SessionRow`: a named session and where it is live. */
export const SessionRow = z.object({
  name: z.string(),
  createdAt: isoTime,
  lastUsedAt: isoTime,
  ttlMs: z.number().optional(),
  namespaces: z.array(z.string()),
  live: z.array(z.string()),
  ...SESSION_ATTACH_FIELDS,
});

/** How many instances an operation stopped (or will stop once released). */
export const Stopped = z.object({ stopped: count });
