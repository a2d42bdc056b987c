/**
 * The daemon's task routes (ops/routes.ts spreads them into its table): each
 * reaches a task on the instance that made it (engine/tasks.ts; decision
 * 0035). The handlers are ops/daemon_tasks.ts.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";
import { CALLER_SHAPE } from "./caller_schema.ts";
import { TaskRow } from "./task_outputs.ts";

/** A body with a task id and the caller's limit, then the caller's fields (ops/caller_schema.ts). */
const taskBody = z.object({
  taskId: z.string().min(1).describe("the task's id"),
  timeoutMs: z.number().int().min(1).optional().describe(
    "the caller's limit on the request (result: on the whole wait), ms; default callTimeout",
  ),
  ...CALLER_SHAPE,
});

/** `POST /v1/tasks`. */
export const tasks = defineOp({
  name: "tasks",
  description: "Every task this daemon made and still remembers, with each one's state as " +
    "its instance reports it (tasks/list, else tasks/get); lost when that instance stopped.",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({
    timeoutMs: z.number().int().min(1).optional().describe("the limit per instance asked, ms"),
    ...CALLER_SHAPE,
  }),
  output: z.array(TaskRow),
});

/** `POST /v1/taskGet`. */
export const taskGet = defineOp({
  name: "taskGet",
  description: "`tasks/get` of one task, on the instance that made it.",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: taskBody,
  output: TaskRow,
});

/** `POST /v1/taskResult`. */
export const taskResult = defineOp({
  name: "taskResult",
  description: "Wait for one task to end (polling tasks/get at the server's interval), then " +
    "`tasks/result`: the tool's CallToolResult. The task keeps running if the time passes.",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: taskBody,
  output: z.unknown().describe("the MCP CallToolResult"),
  serverData: true,
});

/** `POST /v1/taskCancel`. */
export const taskCancel = defineOp({
  name: "taskCancel",
  description: "`tasks/cancel` of one task, on the instance that made it.",
  where: "daemon",
  hints: { readOnly: false, destructive: true, idempotent: true },
  input: taskBody,
  output: TaskRow,
});

/** The task routes by name. */
export const TASK_ROUTES = { tasks, taskGet, taskResult, taskCancel } as const;
