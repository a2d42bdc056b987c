/**
 * The daemon's routes that tell a caller what a call's server said while the
 * call runs, under the call's notify token (wire/caller.ts `notify`): its
 * latest progress (engine/progress_board.ts, decision 0034), and every log
 * message and progress update in order (engine/message_board.ts, decision 0048). ops/routes.ts spreads
 * them into its table; the handlers are in ops/daemon_ops.ts.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";
import { CALLER_SHAPE } from "./caller_schema.ts";
import { ProgressUpdate } from "./route_outputs.ts";

const READ = { readOnly: true, destructive: false, idempotent: true } as const;
const holdMs = z.number().int().min(0).default(20_000).describe(
  "how long to hold the request, ms (at most 60 s)",
);

/** `POST /v1/progress`. */
export const progress = defineOp({
  name: "progress",
  description: "Long-poll: the latest progress of the call that carries a notify token, " +
    "answered as soon as there is a newer one, else null after holdMs or when the call ends.",
  where: "daemon",
  hints: READ,
  input: z.object({
    token: z.string().min(1).describe("the notify token of a call"),
    after: z.number().int().default(0).describe("only progress with a higher seq (the last seen)"),
    holdMs,
    ...CALLER_SHAPE,
  }),
  output: z.object({ progress: ProgressUpdate.nullable() }),
});

/**
 * What a call's server sent as `callMessages` answers it: a log message (MCP
 * `notifications/message` params) or a progress notification (under `progress`).
 */
const CallMessage = z.union([
  z.object({
    seq: z.number().int(),
    level: z.string().describe("debug, info, notice, warning, error, critical, alert or emergency"),
    logger: z.string().optional(),
    data: z.unknown(),
  }),
  z.object({
    seq: z.number().int(),
    progress: z.object({
      progress: z.number(),
      total: z.number().optional(),
      message: z.string().optional(),
    }),
  }),
]);

/** `POST /v1/callMessages`. */
export const callMessages = defineOp({
  name: "callMessages",
  description: "Long-poll: the log messages and progress notifications the server of the call " +
    "that carries a notify token sent while it ran, every one in order, answered as soon as " +
    "there are newer ones or the call ended, else none after holdMs.",
  where: "daemon",
  hints: READ,
  input: z.object({
    token: z.string().min(1).describe("the notify token of a call"),
    after: z.number().int().default(0).describe("only messages with a higher seq (the last seen)"),
    holdMs,
    ...CALLER_SHAPE,
  }),
  output: z.object({
    messages: z.array(CallMessage),
    ended: z.boolean().describe("the call has ended: no more messages will come"),
  }),
});

/** The call notice routes by name. */
export const CALL_NOTICE_ROUTES = { progress, callMessages } as const;
