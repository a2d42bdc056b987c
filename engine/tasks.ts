/**
 * The daemon's side of `mcpx tasks ls|get|result|cancel` (MCP 2025-11-25,
 * "Tasks"; decision 0035): each request about a task goes to the instance
 * that made it, found in the daemon's task table (engine/task_table.ts), and
 * a task whose instance has stopped is reported lost with it, never asked of
 * another process, which would not know it.
 *
 * @module
 */

import type { Task } from "@modelcontextprotocol/client";
import { McpxError, NotFoundError, TimeoutError } from "../core/errors.ts";
import type { Instance } from "./instance.ts";
import type { TaskEntry, TaskTable } from "./task_table.ts";
import { cancelTask, getTask, listTasks, waitForTask } from "./task_call.ts";
import { log } from "./log.ts";

/** One task as `mcpx tasks` shows it: the server's word on it and where it lives. */
export interface TaskRow {
  taskId: string;
  namespace: string;
  tool: string;
  /** The instance that made it (`i7`) and the scope key it serves. */
  instance: string;
  key: string;
  /** The caller's session, when it had one. */
  session?: string;
  /** The server's status, or `lost` when the instance that made it has stopped. */
  status: Task["status"] | "lost";
  statusMessage?: string;
  /** The server's suggested pause between two `tasks/get`, ms. */
  pollInterval?: number;
  /** ISO times: when mcpx made it, and when mcpx forgets it (its TTL). */
  createdAt: string;
  expiresAt: string;
}

/** Time and cancellation of a task request; absent `timeoutMs`: the server's `callTimeout`. */
export interface TaskOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * `tasks/get` of one task, on its instance.
 * @throws {NotFoundError} for a task the table does not hold; {McpxError}
 *   `task-lost` when its instance has stopped; what the request throws.
 */
export async function taskGet(
  table: TaskTable<Instance>,
  taskId: string,
  options: TaskOptions = {},
): Promise<TaskRow> {
  const entry = reach(table, taskId);
  const task = await getTask(entry.instance, taskId, timed(entry, options));
  table.update(task);
  return rowOf(entry);
}

/**
 * The result of one task: waits for it to end (polling `tasks/get` at the
 * server's interval, engine/task_call.ts), then `tasks/result`. The task is
 * left running when the time passes.
 *
 * @returns The task's `CallToolResult`.
 * @throws {TimeoutError} when the time passes first, saying the task still
 *   runs; what {@link taskGet} throws.
 */
export async function taskResult(
  table: TaskTable<Instance>,
  taskId: string,
  options: TaskOptions = {},
): Promise<unknown> {
  const entry = reach(table, taskId);
  const { timeoutMs, signal } = timed(entry, options);
  try {
    const outcome = await waitForTask(entry.instance, entry.task, {
      timeoutMs,
      signal,
      onStatus: (task) => table.update(task),
    });
    table.update(outcome.task);
    return outcome.result;
  } catch (error) {
    if (!(error instanceof TimeoutError)) throw error;
    throw new TimeoutError(
      `task ${taskId} (${entry.namespace}.${entry.tool}) has not ended within ${timeoutMs} ms ` +
        `(${options.timeoutMs !== undefined ? "--timeout" : "callTimeout"}); it is still ` +
        `running: wait longer with \`mcpx tasks result ${taskId} --timeout 10m\``,
      timeoutMs,
      { cause: error, setting: options.timeoutMs !== undefined ? "--timeout" : "callTimeout" },
    );
  }
}

/**
 * `tasks/cancel` of one task, on its instance.
 * @returns The task as the cancel left it.
 * @throws What {@link taskGet} throws (a task already ended: the server's error).
 */
export async function taskCancel(
  table: TaskTable<Instance>,
  taskId: string,
  options: TaskOptions = {},
): Promise<TaskRow> {
  const entry = reach(table, taskId);
  const task = await cancelTask(entry.instance, taskId, timed(entry, options));
  table.update(task);
  log("info", "task.cancel", "task {taskId} of {namespace}.{tool} cancelled: {status}", {
    taskId,
    namespace: entry.namespace,
    tool: entry.tool,
    status: task.status,
  });
  return rowOf(entry);
}

/**
 * Every task the table holds, each instance asked once with `tasks/list`
 * (else each task with `tasks/get`) for its tasks' states; a task whose
 * instance has stopped is shown `lost`, and one its server no longer lists
 * keeps its last known state. A failure to ask leaves the last known states.
 */
export async function taskList(
  table: TaskTable<Instance>,
  options: TaskOptions = {},
): Promise<TaskRow[]> {
  const entries = table.list();
  const byInstance = Map.groupBy(entries.filter((e) => !e.instance.closed), (e) => e.instance);
  await Promise.all([...byInstance].map(async ([instance, mine]) => {
    const opts = timed(mine[0], options);
    try {
      const listed = instance.client.getServerCapabilities()?.tasks?.list
        ? await listTasks(instance, opts)
        : await Promise.all(mine.map((e) => getTask(instance, e.taskId, opts)));
      for (const task of listed) table.update(task);
    } catch { /* the last known states stand */ }
  }));
  return table.list().map(rowOf);
}

/**
 * The table's entry for `taskId`, its instance still live.
 * @throws {NotFoundError}; {McpxError} `task-lost` (the entry is then forgotten).
 */
function reach(table: TaskTable<Instance>, taskId: string): TaskEntry<Instance> {
  const entry = table.get(taskId);
  if (!entry) {
    throw new NotFoundError(
      `unknown task "${taskId}": this daemon made no such task, or its TTL (tasks.ttl) has ` +
        `passed, or the daemon has restarted since; \`mcpx tasks ls\` lists the tasks it knows`,
    );
  }
  const { instance } = entry;
  if (instance.closed) {
    table.delete(taskId);
    throw new McpxError(
      "task-lost",
      `task ${taskId} (${entry.namespace}.${entry.tool}) lived in ${entry.namespace} instance ` +
        `${instance.id} (${instance.key}), which has stopped (${
          instance.exit?.reason ?? "gone"
        }); ` +
        `the task was lost with it: call the tool again`,
    );
  }
  return entry;
}

function timed(entry: TaskEntry<Instance>, options: TaskOptions) {
  return {
    timeoutMs: options.timeoutMs ?? entry.instance.spec.pool.callTimeoutMs,
    signal: options.signal,
  };
}

/** An entry as `mcpx tasks` shows it. */
export function rowOf(entry: TaskEntry<Instance>): TaskRow {
  const { task } = entry;
  return {
    taskId: entry.taskId,
    namespace: entry.namespace,
    tool: entry.tool,
    instance: entry.instance.id,
    key: entry.instance.key,
    ...(entry.caller.session ? { session: entry.caller.session } : {}),
    status: entry.instance.closed ? "lost" : task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    ...(typeof task.pollInterval === "number" ? { pollInterval: task.pollInterval } : {}),
    createdAt: new Date(entry.createdAt).toISOString(),
    expiresAt: new Date(entry.expiresAt).toISOString(),
  };
}
