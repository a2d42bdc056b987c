/**
 * How one `tools/call` uses tasks (MCP 2025-11-25, "Tasks"; decision 0035):
 * a call of a tool whose `execution.taskSupport` is `required` runs as a
 * task and waits for its result within the call's time, as if it were an
 * ordinary call; a call asked for as a task (`mcpx call --task`) answers the
 * task's handle at once and the daemon's task table remembers which instance
 * made it (engine/task_table.ts), so `mcpx tasks …` reaches that instance.
 *
 * @module
 */

import type { CallToolResult, CreateTaskResult, Task } from "@modelcontextprotocol/client";
import { TimeoutError, UsageError } from "../core/errors.ts";
import type { TaskSupport } from "../discovery/types.ts";
import type { Instance } from "./instance.ts";
import type { CallerContext } from "./scope_key.ts";
import type { TaskTable } from "./task_table.ts";
import { cancelTask, createTask, waitForTask } from "./task_call.ts";
import { log } from "./log.ts";

/** How a call runs: an ordinary `tools/call`, a task waited for, or a task's handle. */
export type TaskMode = "call" | "wait" | "handle";

/** What a call needs to run as a task. */
export interface TaskCallOptions {
  /** Answer the task's handle at once (`mcpx call --task`). */
  asTask?: boolean;
  /** The TTL to ask for, ms; default the table's (`tasks.ttl`). */
  taskTtlMs?: number;
  /** The daemon's task table. */
  tasks?: TaskTable<Instance>;
}

/**
 * The mode of a call of a tool with `taskSupport`.
 *
 * @param ref `namespace.tool`, for the error.
 * @throws {UsageError} when a task is asked for a tool that does not support
 *   one (`forbidden`, or never said), naming the tool and the fix.
 */
export function taskMode(
  ref: string,
  taskSupport: TaskSupport | undefined,
  asTask: boolean | undefined,
): TaskMode {
  if (asTask) {
    if (taskSupport === "optional" || taskSupport === "required") return "handle";
    throw new UsageError(
      `${ref} cannot run as a task: its server lists it with execution.taskSupport ` +
        `"${taskSupport ?? "forbidden"}"; call it without --task`,
    );
  }
  return taskSupport === "required" ? "wait" : "call";
}

/**
 * Runs a call as a task on `instance`, in `mode` (`wait` or `handle`).
 *
 * @param ms The call's time, ms: the whole wait in `wait` mode, the creation in `handle` mode.
 * @returns The tool's `CallToolResult` (`wait`, or a server that answered at
 *   once), or the `CreateTaskResult` (`handle`).
 * @throws {UsageError} for a handle on an instance that ends with the call
 *   (the task would be lost at once); {TimeoutError} when `ms` passes (the
 *   task is cancelled first); what the task's requests throw.
 */
export async function runAsTask(
  instance: Instance,
  tool: string,
  args: Record<string, unknown>,
  ctx: CallerContext,
  mode: Exclude<TaskMode, "call">,
  ms: number,
  options: TaskCallOptions & { signal?: AbortSignal },
): Promise<CallToolResult | CreateTaskResult> {
  const table = options.tasks;
  if (!table) throw new Error("a task call needs the daemon's task table");
  const ref = `${instance.spec.namespace}.${tool}`;
  if (mode === "handle" && instance.scopeKey.kind === "call") {
    throw new UsageError(
      `${ref} would run as a task on a process that stops when this call ends, losing the ` +
        `task: ${instance.spec.namespace} is scoped by ${instance.spec.pool.scope}; pass ` +
        `--session <key> (or set MCPX_SESSION_ID) so the task's process outlives the call`,
    );
  }
  const ttlMs = options.taskTtlMs ?? table.ttlMs;
  const started = performance.now();
  const answer = await createTask(instance, tool, args, ttlMs, {
    timeoutMs: ms,
    signal: options.signal,
  });
  if ("ran" in answer) return answer.ran; // the server ran it at once
  const { made } = answer;
  const task = made.task as Task;
  table.add(
    {
      taskId: task.taskId,
      namespace: instance.spec.namespace,
      tool,
      instance,
      caller: {
        ...(ctx.session ? { session: ctx.session } : {}),
        ...(ctx.run ? { run: ctx.run } : {}),
      },
      task,
    },
    Date.now(),
    ttlMs,
  );
  log("info", "task.created", "{namespace}.{tool} made task {taskId} on {instance} ({key})", {
    namespace: instance.spec.namespace,
    tool,
    taskId: task.taskId,
    instance: instance.id,
    key: instance.key,
    ttlMs,
    ...(typeof task.ttl === "number" ? { serverTtlMs: task.ttl } : {}),
  });
  if (mode === "handle") return made;
  const left = Math.max(1, Math.floor(ms - (performance.now() - started)));
  try {
    const outcome = await waitForTask(instance, task, {
      timeoutMs: left,
      signal: options.signal,
      onStatus: (now) => table.update(now),
    });
    table.update(outcome.task);
    return outcome.result;
  } catch (error) {
    // The call is over; a task left working would hold the server's work for nobody.
    if (error instanceof TimeoutError || options.signal?.aborted) {
      await cancelTask(instance, task.taskId, { timeoutMs: 2_000 }).then(
        (now) => table.update(now),
        () => {},
      );
    }
    throw error;
  }
}
