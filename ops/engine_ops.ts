/**
 * The operations on servers and their instances: calling a tool, what is
 * running, starting again, sessions, the daemon itself, and trust (spec 000,
 * "One daemon, many clients", "Sessions and scope", "Honest failure
 * reporting").
 *
 * @module
 */

import { AS_TASK, RESUME } from "./shared_fields.ts";
import * as z from "zod";
import { defineOp } from "./op.ts";
import { withCaller } from "./caller_schema.ts";
import { commandLineOnly, DURATION_MS, fromSetting } from "./field_meta.ts";
import { DIRECT_FIELDS, DIRECT_FLAGS } from "./direct_flags.ts";
import {
  CallOutput,
  DaemonOutput,
  DaemonsOutput,
  RefreshOutput,
  RestartOutput,
  SessionOutput,
  StatusOutput,
  StopOutput,
  TrustOutput,
  UntrustOutput,
} from "./engine_outputs.ts";
import { TaskHandle } from "./task_outputs.ts";
import { QuestionRow } from "./question_outputs.ts";

const READ = { readOnly: true, destructive: false, idempotent: true } as const;

/**
 * `mcpx call`, `POST /v1/call` and `mcpx_call`: one declaration, run by the
 * daemon (ops/daemon_ops.ts). The command line sends its input as parsed
 * (cli/op_request.ts): the name as typed, the arguments once read from
 * `@file` or stdin, the timeout as typed; the daemon splits the name,
 * resolves it and reads the duration.
 */
export const call = defineOp({
  name: "call",
  description:
    "Call one tool with JSON arguments (no script runtime involved) and answer its result " +
    "(a task-only tool is waited for; --task answers the task's handle at once).",
  where: "daemon",
  hints: { readOnly: false, destructive: true, idempotent: false },
  serve: {
    fields: ["target", "arguments", "timeout"],
    description:
      "Call one tool of a configured server (target: `namespace.tool`) with its arguments as an " +
      "object (mcpx_types shows them); answers the tool's own result. For more than one call, " +
      "use mcpx_exec.",
    answer: "tool-result",
  },
  input: withCaller({
    target: z.string().min(1).describe(
      "the tool: namespace.tool (the namespace or its server's name, then the tool's name or " +
        "its identifier)",
    ),
    // Checked, not rebuilt: zod copies a record key by key, and a key named
    // `__proto__` (a tool may take one) would set the copy's prototype instead.
    arguments: z.unknown()
      .refine((v) => typeof v === "object" && v !== null && !Array.isArray(v), {
        message: "must be a JSON object",
      })
      .transform((v) => v as Record<string, unknown>)
      .meta({ type: "object" }).optional().describe("the tool's arguments, a JSON object"),
    timeout: DURATION_MS.optional().describe(
      "cancel the call after this long: the wait for an instance and the call together",
    ),
    timeoutSetting: z.string().optional().describe(
      "what set timeout, as errors name it (default --timeout)",
    ),
    task: AS_TASK.optional(),
    taskTtlMs: fromSetting(z.number().int().min(1), "tasks.ttl").optional().describe(
      "the TTL a task asks for, ms",
    ),
    resume: RESUME.optional(),
    trace: fromSetting(z.boolean(), "logging.trace").optional().describe(
      "log the instance that serves the call and send it back (MCPX_TRACE)",
    ),
    raw: commandLineOnly(z.boolean()).optional().describe("print the whole MCP result envelope"),
    extra: commandLineOnly(z.array(z.string())).default([]).describe(
      "after a URL or stdio target and its tool's name: the tool's arguments",
    ),
    ...DIRECT_FIELDS,
  }),
  output: z.union([CallOutput, TaskHandle, z.object({ question: QuestionRow })]),
  serverData: true,
  cli: {
    command: "call",
    module: "./call/call.ts",
    warm: true,
    usage: "mcpx call <namespace>.<tool> [json | - | @file] [--task] | <url> <tool> [json]",
    summary: "call one tool with JSON arguments, no script runtime involved",
    args: [
      { field: "target", name: "namespace.tool", complete: "tool" },
      { field: "arguments", name: "json", optional: true, syntax: "json-or-file" },
      { field: "extra", name: "extra", variadic: true, optional: true },
    ],
    flags: {
      raw: { field: "raw", type: "boolean" },
      timeout: {
        field: "timeout",
        type: "string",
        syntax: "duration",
      },
      task: {
        field: "task",
        type: "boolean",
      },
      resume: {
        field: "resume",
        type: "string",
      },
      ...DIRECT_FLAGS,
    },
  },
});

/** `mcpx session`. */
export const session = defineOp({
  name: "session",
  description: "Named sessions: lease keys that outlive the process that made them (new, ls, " +
    "end); search finds any session by name, servers, tools, time or trace id in the log; " +
    "attach watches one (read-only) or takes it over.",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: false },
  input: z.object({
    action: z.string().optional().describe("new, ls, end or search"),
    rest: z.array(z.string()).default([]).describe(
      "end: the session's name; search: the words (names, servers, tools, ISO times, trace ids)",
    ),
    name: z.string().min(1).optional().describe(
      "the session's name: the one new makes (default: a fresh 8-character one), or the one end " +
        "ends",
    ),
    ttl: z.string().optional().describe("end the session after this long unused"),
    readOnly: z.boolean().optional().describe(
      "attach: watch the session's calls as they happen (the default); calls with this " +
        "attachment are refused",
    ),
    takeOver: z.boolean().optional().describe(
      "attach: take the session over; the previous holder's next call is refused " +
        "(session-taken-over)",
    ),
  }),
  output: SessionOutput,
  cli: {
    command: "session",
    module: "./daemon/session.ts",
    usage:
      "mcpx session new [--name N] [--ttl 30m] | ls | end <name> | search <words…> | attach <name> [--read-only | --take-over]",
    summary: "named sessions: lease keys that outlive the process that made them",
    args: [
      {
        field: "action",
        name: "new|ls|end|search|attach",
        optional: true,
        complete: ["new", "ls", "end", "search", "attach"],
      },
      { field: "rest", name: "name|words", variadic: true, optional: true, complete: "session" },
    ],
    flags: {
      name: {
        field: "name",
        type: "string",
      },
      ttl: {
        field: "ttl",
        type: "string",
        syntax: "duration",
      },
      "read-only": { field: "readOnly", type: "boolean" },
      "take-over": { field: "takeOver", type: "boolean" },
    },
  },
});

/** `mcpx status`. */
export const status = defineOp({
  name: "status",
  description:
    "Live instances per server: pid, key, holders, uptime, calls, last error and stderr tail. A server no daemon can run because the daemon's socket directory is refused (not the user's alone) is `refused`, with the directory's problem and its fix.",
  where: "cli",
  hints: READ,
  serve: {},
  input: z.object({}),
  output: StatusOutput,
  cli: {
    command: "status",
    module: "./daemon/status.ts",
    warm: true,
    usage: "mcpx status",
    summary: "live instances: pid, key, holders, uptime, calls, last error and stderr tail",
  },
});

/** `mcpx refresh`. */
export const refresh = defineOp({
  name: "refresh",
  description: "List servers again and rewrite the schema cache.",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: true },
  serve: {},
  input: z.object({
    namespaces: z.array(z.string()).default([]).describe("the namespaces (default: every one)"),
  }),
  output: RefreshOutput,
  cli: {
    command: "refresh",
    module: "./daemon/refresh.ts",
    usage: "mcpx refresh [namespace…]",
    summary: "list servers again and rewrite the schema cache",
    args: [{
      field: "namespaces",
      name: "namespace",
      variadic: true,
      optional: true,
      complete: "namespace",
    }],
  },
});

/** `mcpx restart`. */
export const restart = defineOp({
  name: "restart",
  description: "Stop a namespace's instances (or one session's); the next call starts fresh ones.",
  where: "cli",
  hints: { readOnly: false, destructive: true, idempotent: true },
  serve: {},
  input: z.object({
    namespaces: z.array(z.string()).default([]).describe("the namespace"),
  }),
  output: RestartOutput,
  cli: {
    command: "restart",
    module: "./daemon/restart.ts",
    usage: "mcpx restart <namespace> [--session <key>]",
    summary:
      "stop a namespace's instances (or one session's, with --session); the next call starts fresh ones",
    args: [{ field: "namespaces", name: "namespace", variadic: true, complete: "namespace" }],
  },
});

/** `mcpx trust`. */
export const trust = defineOp({
  name: "trust",
  description:
    "Let mcpx start the servers of a project's configuration as written now (for a person, not an agent).",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: z.object({
    file: z.string().optional().describe("the configuration file (default: the project's)"),
    list: z.boolean().optional().describe("the trusted files, and which changed since"),
  }),
  output: TrustOutput,
  cli: {
    command: "trust",
    module: "./config/trust.ts",
    usage: "mcpx trust [file] | --list",
    summary:
      "let mcpx start the servers of a project's configuration as written now (for a person, not an agent)",
    args: [{ field: "file", name: "file", optional: true, complete: "file" }],
    flags: {
      list: {
        field: "list",
        type: "boolean",
      },
    },
  },
});

/** `mcpx untrust`. */
export const untrust = defineOp({
  name: "untrust",
  description: "Take back `mcpx trust`: start none of that configuration's servers.",
  where: "cli",
  hints: { readOnly: false, destructive: true, idempotent: true },
  input: z.object({
    file: z.string().optional().describe("the configuration file (default: the project's)"),
  }),
  output: UntrustOutput,
  cli: {
    command: "untrust",
    module: "./config/untrust.ts",
    usage: "mcpx untrust [file]",
    summary: "take back `mcpx trust`: start none of that configuration's servers",
    args: [{ field: "file", name: "file", optional: true, complete: "file" }],
  },
});

/** `mcpx daemon`. */
export const daemon = defineOp({
  name: "daemon",
  description: "Run this configuration's daemon in the foreground (stays up); with --port, " +
    "its /v1 API over TCP too.",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: false },
  input: z.object({
    action: z.enum(["upgrade"]).optional().describe(
      "upgrade: replace the running daemon with the installed version, its servers kept",
    ),
  }),
  output: DaemonOutput,
  cli: {
    command: "daemon",
    module: "./daemon/daemon_cmd.ts",
    usage: "mcpx daemon [--port P] [--address A] | upgrade",
    summary: "run this configuration's daemon in the foreground (stays up), or upgrade the " +
      "running one without stopping its servers",
    args: [{ field: "action", name: "upgrade", optional: true, complete: ["upgrade"] }],
    flags: {
      port: {
        type: "string",
        setting: "daemon.port",
      },
      address: {
        type: "string",
        setting: "daemon.address",
      },
    },
  },
});

/** `mcpx daemons`. */
export const daemons = defineOp({
  name: "daemons",
  description: "Every live daemon with its configuration.",
  where: "cli",
  hints: READ,
  input: z.object({}),
  output: DaemonsOutput,
  cli: {
    command: "daemons",
    module: "./daemon/daemons.ts",
    usage: "mcpx daemons",
    summary: "list every live daemon with its configuration",
  },
});

/** `mcpx stop`. */
export const stop = defineOp({
  name: "stop",
  description: "Stop this configuration's daemon and its servers, or every daemon.",
  where: "cli",
  hints: { readOnly: false, destructive: true, idempotent: true },
  input: z.object({
    all: z.boolean().optional().describe(
      "stop every daemon that uses this state directory, and the front process",
    ),
  }),
  output: StopOutput,
  cli: {
    command: "stop",
    module: "./daemon/stop.ts",
    usage: "mcpx stop [--all]",
    summary: "stop this configuration's daemon (and its servers), or every daemon",
    flags: {
      all: {
        field: "all",
        type: "boolean",
      },
    },
  },
});
