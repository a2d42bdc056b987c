/**
 * `mcpx tasks`: the tasks mcpx made (MCP 2025-11-25, "Tasks"; spec 000,
 * "Tasks"): `mcpx call --task` answers a task's handle, and these follow it
 * on the instance that made it (routes `tasks`, `taskGet`, `taskResult`,
 * `taskCancel` in ops/routes.ts; decision 0035).
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";
import { TasksOutput } from "./task_outputs.ts";

/** `mcpx tasks`. */
export const tasks = defineOp({
  name: "tasks",
  description: "The tasks mcpx made (mcpx call --task): list them, or one's status, wait for " +
    "its result, or cancel it, on the server process that made it.",
  where: "cli",
  // `cancel` stops a task's work on the server; `result` may run a while.
  hints: { readOnly: false, destructive: true, idempotent: false },
  input: z.object({
    action: z.string().optional().describe("ls, get, result or cancel"),
    id: z.string().optional().describe("the task's id"),
    timeout: z.string().optional().describe(
      "give up waiting after this long (default the server's callTimeout)",
    ),
    raw: z.boolean().optional().describe("result: print the whole MCP result envelope"),
  }),
  output: TasksOutput,
  cli: {
    command: "tasks",
    module: "./call/tasks.ts",
    usage: "mcpx tasks [ls] | get <id> | result <id> [--timeout 5m] | cancel <id>",
    summary: "follow the tasks `mcpx call --task` made: list, status, result, cancel",
    args: [
      {
        field: "action",
        name: "ls|get|result|cancel",
        optional: true,
        complete: ["ls", "get", "result", "cancel"],
      },
      { field: "id", name: "id", optional: true },
    ],
    flags: {
      timeout: {
        field: "timeout",
        type: "string",
        syntax: "duration",
      },
      raw: { field: "raw", type: "boolean" },
    },
  },
});
