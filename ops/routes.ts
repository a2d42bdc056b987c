/**
 * The daemon's routes (decision 0021): each `POST /v1/<name>` declared once as an op with
 * `where: "daemon"`, its request body (zod `input`, the caller's fields included:
 * ops/caller_schema.ts) and its answer (zod `output`), validated by daemon/http.ts before its
 * handler (ops/daemon_ops.ts) runs. Routes have no command line: commands are their own ops
 * (ops/table.ts); plumbing routes (`health`, `waits`, `endRun`, `retire`, …) have no command.
 *
 * @module
 */

import { NEW_SESSION_NAME, RESOURCE_URI, SKILL_URI, VERIFY } from "./shared_fields.ts";
import * as z from "zod";
import { MAX_DURATION_MS } from "../config/duration.ts";
import { defineOp } from "./op.ts";
import { call } from "./engine_ops.ts";
import { search } from "./discovery_ops.ts";
import { callerSchema, withCaller } from "./caller_schema.ts";
import {
  Attacher,
  HealthOutput,
  LeaseWait,
  ListResult,
  LiveOutput,
  SessionRow,
  StartingRow,
  StatusRow,
  Stopped,
} from "./route_outputs.ts";
import { LsOutput } from "./discovery_outputs.ts";
import { DaemonOutput } from "./engine_outputs.ts";
import { ListingWait } from "./output_shapes.ts";
import { Completion, PromptsOf, ResourcesOf } from "./content_outputs.ts";
import { TASK_ROUTES } from "./task_routes.ts";
import { QUESTION_ROUTES } from "./question_routes.ts";
import { SUBSCRIPTION_ROUTES } from "./subscription_routes.ts";
import { VIEW_ROUTES } from "./view_routes.ts";
import { events } from "./event_ops.ts";

const READ = { readOnly: true, destructive: false, idempotent: true } as const;
const STOPS = { readOnly: false, destructive: true, idempotent: true } as const;
const name = z.string().min(1);

/** `POST /v1/health`. */
export const health = defineOp({
  name: "health",
  description: "Who this daemon is: version, pid, configuration; log records it could not write.",
  where: "daemon",
  hints: READ,
  input: callerSchema,
  output: HealthOutput,
});

/** `POST /v1/live`. */
export const live = defineOp({
  name: "live",
  description: "Live instance count and last start failure per namespace.",
  where: "daemon",
  hints: READ,
  input: callerSchema,
  output: LiveOutput,
});

/** `POST /v1/starting`. */
export const starting = defineOp({
  name: "starting",
  description: "Server starts in progress: namespace, key, elapsed ms, allowance, setting, phase.",
  where: "daemon",
  hints: READ,
  input: callerSchema,
  output: z.array(StartingRow),
});

/** `POST /v1/status`. */
export const status = defineOp({
  name: "status",
  description: "Every server's state, live instances and last failure with stderr tail.",
  where: "daemon",
  hints: READ,
  input: callerSchema,
  output: z.array(StatusRow),
});

/**
 * What every prompts and resources route takes besides its own fields: the
 * caller's limit and the pagination bounds it resolved (engine/pagination.ts;
 * absent: the settings' defaults).
 */
const CONTENT_FIELDS = {
  timeoutMs: z.number().int().min(1).max(MAX_DURATION_MS).optional().describe(
    "the caller's limit on the wait for an instance and the requests together, ms",
  ),
  maxPages: z.number().int().min(1).optional().describe("listing.maxPages"),
  maxItems: z.number().int().min(1).optional().describe("listing.maxItems"),
  maxResponseBytes: z.number().int().min(1).optional().describe("response.maxBytes"),
};

// Checked, not rebuilt, as `call`'s arguments are: a key named `__proto__` stays a key.
const stringRecord = z.unknown()
  .refine(
    (v) =>
      typeof v === "object" && v !== null && !Array.isArray(v) &&
      Object.values(v).every((x) => typeof x === "string"),
    { message: "must be a JSON object of strings" },
  )
  .transform((v) => v as Record<string, string>)
  .meta({ type: "object", additionalProperties: { type: "string" } });

/** `POST /v1/prompts`. */
export const prompts = defineOp({
  name: "prompts",
  description: "`prompts/list` of a namespace, or of every selected one (each failure kept " +
    "as its entry's error); a server without prompts has none.",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: withCaller({
    namespace: name.optional().describe("the namespace (default: every selected one)"),
    ...CONTENT_FIELDS,
  }),
  output: z.array(PromptsOf),
});

/** `POST /v1/promptGet`. */
export const promptGet = defineOp({
  name: "promptGet",
  description: "Render one prompt: its arguments checked against its declaration, then " +
    "`prompts/get`; answers the MCP GetPromptResult.",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: false },
  input: withCaller({
    namespace: name.describe("the namespace"),
    prompt: name.describe("the prompt's name"),
    arguments: stringRecord.optional().describe("the prompt's arguments"),
    ...CONTENT_FIELDS,
  }),
  output: z.unknown().describe("the MCP GetPromptResult"),
  serverData: true,
});

/** `POST /v1/resources`. */
export const resources = defineOp({
  name: "resources",
  description: "`resources/list` and `resources/templates/list` of a namespace, or of every " +
    "selected one (each failure kept as its entry's error).",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: withCaller({
    namespace: name.optional().describe("the namespace (default: every selected one)"),
    ...CONTENT_FIELDS,
  }),
  output: z.array(ResourcesOf),
});

/** `POST /v1/resourceRead`. */
export const resourceRead = defineOp({
  name: "resourceRead",
  description: "`resources/read` of one URI, or of a template expanded with `variables`; " +
    "answers the MCP ReadResourceResult unchanged.",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: withCaller({
    namespace: name.describe("the namespace"),
    uri: RESOURCE_URI,
    variables: stringRecord.optional().describe("the template's variables"),
    ...CONTENT_FIELDS,
  }),
  output: z.unknown().describe("the MCP ReadResourceResult"),
  serverData: true,
});

/** `POST /v1/skills`. */
export const skills = defineOp({
  name: "skills",
  description: "Every `skills/list` page of a namespace (Skills extension, SEP-2640); a server " +
    "without the extension answers `supported: false`.",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: withCaller({
    namespace: name.describe("the namespace"),
    ...CONTENT_FIELDS,
  }),
  output: z.object({
    namespace: z.string(),
    supported: z.boolean(),
    pages: z.array(z.record(z.string(), z.unknown())),
  }),
  serverData: true,
});

/** `POST /v1/skillGet`. */
export const skillGet = defineOp({
  name: "skillGet",
  description: "The entry of one SKILL.md URI: `{result, entryFrom}`, the `skills/get` " +
    "GetSkillResult unchanged, or `{skill}` with the entry `skills/list` gives when `skills/get` " +
    "gives none (entryFrom `skills/list`); with `verify` its root SKILL.md read and checked " +
    "against that entry.",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: withCaller({
    namespace: name.describe("the namespace"),
    uri: SKILL_URI,
    verify: VERIFY.optional(),
    ...CONTENT_FIELDS,
  }),
  output: z.unknown().describe("{result, entryFrom}, or the verification with entryFrom"),
  serverData: true,
});

/** `POST /v1/complete`. */
export const complete = defineOp({
  name: "complete",
  description: "`completion/complete`: the values a server suggests for one argument of a " +
    "prompt or one variable of a resource template; offered: false when it has no completion.",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: withCaller({
    namespace: name.describe("the namespace"),
    ref: z.discriminatedUnion("type", [
      z.object({ type: z.literal("ref/prompt"), name }),
      z.object({ type: z.literal("ref/resource"), uri: name }),
    ]).describe("the prompt, or the resource template, whose argument is completed"),
    argument: z.object({ name, value: z.string() }).describe(
      "the argument's name and the prefix typed so far",
    ),
    context: stringRecord.optional().describe("the other arguments' values, given"),
    timeoutMs: CONTENT_FIELDS.timeoutMs,
  }),
  output: Completion,
});

/** `POST /v1/endRun`. */
export const endRun = defineOp({
  name: "endRun",
  description:
    "A script run ended: the exclusive instances it held between its calls are free again.",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: withCaller({ run: name.describe("the run id (MCPX_RUN)") }),
  output: z.object({ released: z.number().int().min(0) }),
});

/** `POST /v1/waits`. */
export const waits = defineOp({
  name: "waits",
  description: "Long-poll: the lease waits (a call waiting for an instance others hold) " +
    "reported under a token, answered as soon as there is one, else [] after holdMs.",
  where: "daemon",
  hints: READ,
  input: withCaller({
    token: name.describe("a run id, or the notify token of a call"),
    after: z.number().int().default(0).describe(
      "only waits with a higher id (the last one seen)",
    ),
    holdMs: z.number().int().min(0).default(20_000).describe(
      "how long to hold the request, ms (at most 60 s)",
    ),
  }),
  output: z.object({ waits: z.array(LeaseWait) }),
});

/** `POST /v1/list`. */
export const list = defineOp({
  name: "list",
  description: "List the tools of servers (all, or named) and write the schema cache.",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: withCaller({
    servers: z.array(z.string()).default([]).describe(
      "server names or namespaces (default: every enabled server)",
    ),
    missingOnly: z.boolean().default(false).describe("only servers with no usable cache entry"),
    wait: ListingWait.optional().describe(
      "how long to wait for the listings (default: until each ends); one still going is `starting`",
    ),
  }),
  output: z.record(z.string(), ListResult),
});

/**
 * `POST /v1/lsNamespaces`: `mcpx ls` answered from the daemon's own cache
 * and pools (decision 0030), with no warnings: the CLI adds its own
 * configuration's and settings'. Sent only to a daemon already running.
 */
export const lsNamespaces = defineOp({
  name: "lsNamespaces",
  description: "One row per server of the caller's profile selection, with live counts: " +
    "what `mcpx ls` prints.",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: withCaller({
    wait: ListingWait.optional().describe("how long to wait for listings (default: to the end)"),
  }),
  output: z.object({
    output: LsOutput,
    unusable: z.array(z.object({ server: z.string(), tool: z.string(), problem: z.string() })),
  }),
});

/** `POST /v1/restart`. */
export const restart = defineOp({
  name: "restart",
  description:
    "Stop every instance of a namespace (or of one session); the next call starts a fresh one.",
  where: "daemon",
  hints: STOPS,
  input: withCaller({
    namespace: name.describe("the namespace"),
    // Not `session`: every request carries the caller's session
    // (MCPX_SESSION_ID included), which must not narrow a restart.
    onlySession: name.optional().describe(
      "stop only the instances keyed session:<key> or parent-session:<key>",
    ),
  }),
  output: Stopped,
});

/** `POST /v1/endSession`. */
export const endSession = defineOp({
  name: "endSession",
  description: "End a session: every instance keyed by it (session:<key>, " +
    "parent-session:<key>) in every namespace stops once its current lease is released.",
  where: "daemon",
  hints: STOPS,
  input: withCaller({
    // The caller's own session field: a script runner ends the key it
    // minted for its run (MCPX_EPHEMERAL) by sending it as its session.
    session: name.describe("the session key to end"),
  }),
  output: Stopped,
});

/** `POST /v1/sessionNew`. */
export const sessionNew = defineOp({
  name: "sessionNew",
  description: "Make a named session: a session key that outlives the process that made it.",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: false },
  input: withCaller({
    name: NEW_SESSION_NAME.optional(),
    ttlMs: z.number().int().min(1).optional().describe(
      "end the session after this long without a call, in ms",
    ),
  }),
  output: SessionRow,
});

/** `POST /v1/sessionList`. */
export const sessionList = defineOp({
  name: "sessionList",
  description: "Every named session: age, ttl, last use, namespaces with live instances.",
  where: "daemon",
  hints: READ,
  input: callerSchema,
  output: z.array(SessionRow),
});

/** `POST /v1/sessionEnd`. */
export const sessionEnd = defineOp({
  name: "sessionEnd",
  description: "End a named session: stop its instances and delete its record.",
  where: "daemon",
  hints: STOPS,
  // Not `session`: every request carries the caller's own session.
  input: withCaller({ name: name.describe("the named session") }),
  output: z.object({ name: z.string(), stopped: z.number().int().min(0) }),
});

const AttachedAnswer = z.object({
  session: z.string(),
  mode: z.enum(["read", "write"]),
  token: z.string().describe(
    "the attachment: send it as the caller's attach (MCPX_ATTACH) with calls under the session",
  ),
  since: z.string().describe("ISO time it attached"),
  previous: Attacher.optional().describe("the writer a take-over replaced"),
});

/** `POST /v1/sessionAttach`. */
export const sessionAttach = defineOp({
  name: "sessionAttach",
  description: "Attach to a named session (decision 0085): read, to watch its calls on the " +
    "event bus (any number; calls with the attachment are refused), or write, to take it " +
    "over (calls under it without the attachment are then refused, session-taken-over). " +
    "Who may: setting sessions.attach.",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: false },
  input: withCaller({
    name: name.describe("the named session"),
    mode: z.enum(["read", "write"]).describe("read: watch; write: take over"),
  }),
  output: AttachedAnswer,
});

/** `POST /v1/sessionDetach`. */
export const sessionDetach = defineOp({
  name: "sessionDetach",
  description: "End an attachment (a watcher leaving, a writer giving the session back).",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: withCaller({ token: name.describe("the attachment") }),
  output: z.object({ detached: z.boolean().describe("false: no such attachment (any more)") }),
});

/** `POST /v1/retire`. */
export const retire = defineOp({
  name: "retire",
  description: "Stop once the requests in flight have finished (a newer daemon took over " +
    "this configuration).",
  where: "daemon",
  hints: STOPS,
  input: callerSchema,
  output: z.object({ retiring: z.literal(true), inFlight: z.number().int().min(0) }),
});

/** `POST /v1/stop`. */
export const stop = defineOp({
  name: "stop",
  description: "Stop the daemon and every server it holds.",
  where: "daemon",
  hints: STOPS,
  input: callerSchema,
  output: z.object({ stopping: z.literal(true) }),
});

/** `POST /v1/upgrade`. */
export const upgrade = defineOp({
  name: "upgrade",
  description: "Replace this daemon with one of the installed version, keeping every stdio " +
    "server it holds running (decision 0084).",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: false },
  input: callerSchema,
  output: DaemonOutput,
});

/** The routes by name (the route is `POST /v1/<name>`). */
export const ROUTE_SPECS = {
  health,
  live,
  starting,
  status,
  call,
  ...TASK_ROUTES,
  ...QUESTION_ROUTES,
  prompts,
  promptGet,
  resources,
  resourceRead,
  ...SUBSCRIPTION_ROUTES,
  skills,
  skillGet,
  complete,
  endRun,
  waits,
  list,
  search,
  lsNamespaces,
  ...VIEW_ROUTES,
  events,
  restart,
  endSession,
  sessionNew,
  sessionList,
  sessionEnd,
  sessionAttach,
  sessionDetach,
  retire,
  stop,
  upgrade,
} as const;

/** A route's name. */
export type RouteName = keyof typeof ROUTE_SPECS;

/** Every route, in the order above. */
export const ROUTES: readonly (typeof ROUTE_SPECS)[RouteName][] = Object.values(ROUTE_SPECS);
