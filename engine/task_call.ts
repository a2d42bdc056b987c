/**
 * A task's requests on the instance that made it (MCP 2025-11-25, "Tasks";
 * an extension in 2026-07-28): a task-augmented `tools/call`, `tasks/get`,
 * `tasks/result`, `tasks/cancel` and `tasks/list`, each sent through the
 * instance (its bookkeeping and error wording) and checked against the SDK's
 * own schema of the answer (`specTypeSchemas`: the SDK 2.4 client has no task
 * methods of its own, only the wire types). And the wait a plain call of a
 * task-only tool makes: poll `tasks/get` at the server's suggested interval
 * (bounded, {@link POLL_BOUNDS_MS}) until the task is done or needs input,
 * then `tasks/result`, all within the call's time (decision 0035).
 *
 * @module
 */

import {
  type CallToolResult,
  type CreateTaskResult,
  specTypeSchemas,
  type Task,
} from "@modelcontextprotocol/client";
import { ServerError, TimeoutError } from "../core/errors.ts";
import type { Instance } from "./instance.ts";
import { paginate } from "./pagination.ts";

/** How long a task wait sleeps between two `tasks/get`, in ms: the server's `pollInterval`, held within these. */
export const POLL_BOUNDS_MS = { min: 100, max: 5_000, absent: 1_000 } as const;

/** A task's state that ends it: its result (or error) is final. */
export function isTerminal(status: Task["status"]): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** Time and cancellation of one task request. */
export interface TaskRequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Sends `tools/call` with `task: { ttl }` (a task-augmented request).
 *
 * @returns The `CreateTaskResult` (`made`), or the plain `CallToolResult`
 *   (`ran`) when the server ran the call at once (a tool whose `taskSupport`
 *   is `optional` may).
 * @throws What {@linkcode Instance.request} throws; {ServerError} for an
 *   answer that is neither a task nor a tool result.
 */
export async function createTask(
  instance: Instance,
  tool: string,
  args: Record<string, unknown>,
  ttlMs: number,
  options: TaskRequestOptions,
): Promise<{ made: CreateTaskResult } | { ran: CallToolResult }> {
  const raw = await instance.request(
    "tools/call",
    { name: tool, arguments: args, task: { ttl: ttlMs } },
    options,
  );
  if (typeof raw === "object" && raw !== null && "task" in raw) {
    return { made: checked(instance, "tools/call", "CreateTaskResult", raw) };
  }
  return { ran: checked(instance, "tools/call", "CallToolResult", raw) };
}

/** `tasks/get`: the task's state now. @throws What {@linkcode Instance.request} throws. */
export async function getTask(
  instance: Instance,
  taskId: string,
  options: TaskRequestOptions,
): Promise<Task> {
  const raw = await instance.request("tasks/get", { taskId }, options);
  return checked(instance, "tasks/get", "GetTaskResult", raw);
}

/**
 * `tasks/result`: the task's result, which the server holds back until the
 * task ends (for a tool, its `CallToolResult`).
 * @throws What {@linkcode Instance.request} throws (a failed task's error among them).
 */
export async function taskResult(
  instance: Instance,
  taskId: string,
  options: TaskRequestOptions,
): Promise<CallToolResult> {
  const raw = await instance.request("tasks/result", { taskId }, options);
  return checked(instance, "tasks/result", "CallToolResult", raw);
}

/** `tasks/cancel`: the task as the cancel left it. @throws What {@linkcode Instance.request} throws. */
export async function cancelTask(
  instance: Instance,
  taskId: string,
  options: TaskRequestOptions,
): Promise<Task> {
  const raw = await instance.request("tasks/cancel", { taskId }, options);
  return checked(instance, "tasks/cancel", "CancelTaskResult", raw);
}

/**
 * `tasks/list`, every page (engine/pagination.ts's default bounds): the
 * tasks the server keeps for this connection.
 * @throws What {@linkcode Instance.request} throws; {ServerError} past a pagination bound.
 */
export function listTasks(instance: Instance, options: TaskRequestOptions): Promise<Task[]> {
  return paginate(
    { server: instance.spec.name, method: "tasks/list" },
    (cursor) => instance.request("tasks/list", cursor ? { cursor } : {}, options),
    (raw) => {
      const page = checked(instance, "tasks/list", "ListTasksResult", raw);
      return { items: page.tasks, nextCursor: page.nextCursor };
    },
  );
}

/** What {@link waitForTask} answers: the task as it ended and its result. */
export interface TaskOutcome {
  task: Task;
  result: CallToolResult;
}

/**
 * Waits for a task to end: `tasks/get` every `pollInterval` the server
 * suggests (held within {@link POLL_BOUNDS_MS}) until the task ends or asks
 * for input, then `tasks/result`, which the server answers once it ends.
 * Each request gets the time left.
 *
 * @param first The task as last seen (its creation answer), to start from.
 * @param options.timeoutMs The whole wait's limit, in ms.
 * @param options.onStatus Told each status the server reports.
 * @returns The task's last state and its result.
 * @throws {TimeoutError} when `timeoutMs` passes first (the task is not
 *   cancelled here: the caller decides); {ServerError} for a task the server
 *   reports `cancelled`; what the requests throw.
 */
export async function waitForTask(
  instance: Instance,
  first: Task,
  options: TaskRequestOptions & { onStatus?: (task: Task) => void },
): Promise<TaskOutcome> {
  const deadline = performance.now() + options.timeoutMs;
  const left = () => Math.floor(deadline - performance.now());
  const timedOut = () =>
    new TimeoutError(
      `task ${first.taskId} on ${instance.spec.namespace} did not end within ${options.timeoutMs} ms`,
      options.timeoutMs,
    );
  let task = first;
  while (!isTerminal(task.status) && task.status !== "input_required") {
    const pause = pollInterval(task);
    if (left() <= pause) throw timedOut();
    await sleep(pause, options.signal);
    task = await getTask(instance, task.taskId, { timeoutMs: left(), signal: options.signal });
    options.onStatus?.(task);
  }
  if (task.status === "cancelled") {
    throw new ServerError(
      instance.spec.name,
      `task ${task.taskId} on ${instance.spec.namespace} was cancelled, so it has no result${
        task.statusMessage ? ` (the server said: ${task.statusMessage})` : ""
      }`,
    );
  }
  if (left() < 1) throw timedOut();
  const result = await taskResult(instance, task.taskId, {
    timeoutMs: left(),
    signal: options.signal,
  });
  return { task, result };
}

/** The pause before the next `tasks/get`, in ms: the server's suggestion, bounded. */
export function pollInterval(task: Pick<Task, "pollInterval">): number {
  const asked = task.pollInterval;
  if (typeof asked !== "number" || !Number.isFinite(asked)) return POLL_BOUNDS_MS.absent;
  return Math.min(POLL_BOUNDS_MS.max, Math.max(POLL_BOUNDS_MS.min, Math.round(asked)));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

type Checked = {
  CreateTaskResult: CreateTaskResult;
  CallToolResult: CallToolResult;
  GetTaskResult: Task;
  CancelTaskResult: Task;
  ListTasksResult: { tasks: Task[]; nextCursor?: string };
};

/**
 * `raw` checked against the SDK's schema `name`.
 * @throws {ServerError} naming the server, the method and the first problem.
 */
function checked<K extends keyof Checked>(
  instance: Instance,
  method: string,
  name: K,
  raw: unknown,
): Checked[K] {
  const outcome = specTypeSchemas[name]["~standard"].validate(raw);
  if (!outcome.issues) return outcome.value as Checked[K];
  const issue = outcome.issues[0];
  const where = issue.path?.map((p) => (typeof p === "object" ? p.key : p)).join(".") || "answer";
  throw new ServerError(
    instance.spec.name,
    `server "${instance.spec.name}" answered ${method} with something that is not a ${name}: ` +
      `${where}: ${issue.message}`,
    { stderrTail: instance.stderrTail },
  );
}
