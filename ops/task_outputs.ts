/**
 * What the task operations answer (engine/tasks.ts): a task's row, and
 * `mcpx tasks`'s output per action.
 *
 * @module
 */

import * as z from "zod";

/** One task mcpx made (engine/tasks.ts `TaskRow`). */
export const TaskRow = z.strictObject({
  taskId: z.string().describe("the task's id: `mcpx tasks get <taskId>`"),
  namespace: z.string(),
  tool: z.string().describe("the tool's real name"),
  instance: z.string().describe("the instance that made the task, which alone knows it"),
  key: z.string().describe("the scope key that instance serves"),
  session: z.string().optional().describe("the caller's session, when it had one"),
  status: z.enum(["working", "input_required", "completed", "failed", "cancelled", "lost"])
    .describe("the server's status; lost: the instance that made it has stopped"),
  statusMessage: z.string().optional(),
  pollInterval: z.number().optional().describe("the server's suggested pause between polls, ms"),
  createdAt: z.string().describe("ISO time mcpx made it"),
  expiresAt: z.string().describe(
    "ISO time mcpx forgets it (tasks.ttl, or the server's shorter TTL)",
  ),
});

/** `mcpx --json tasks …`: the list, one task, or one task's result (the MCP `CallToolResult`). */
export const TasksOutput = z.union([
  z.object({ tasks: z.array(TaskRow) }),
  TaskRow,
  z.looseObject({ content: z.array(z.looseObject({ type: z.string() })) }),
]);

/** `mcpx --json call --task`: the task's handle (MCP `CreateTaskResult`) and how to follow it. */
export const TaskHandle = z.object({
  task: z.looseObject({
    taskId: z.string(),
    status: z.string(),
    ttl: z.number().nullable().optional(),
    pollInterval: z.number().optional(),
  }).describe("the MCP Task the server made"),
  follow: z.object({
    get: z.string(),
    result: z.string(),
    cancel: z.string(),
  }).describe("the commands that follow the task"),
});
