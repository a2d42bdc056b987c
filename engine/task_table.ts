/**
 * The daemon's table of the tasks mcpx made: task id → the namespace, the
 * instance that made it and the caller that asked (MCP 2025-11-25 "Tasks";
 * spec 000, "Tasks"). A task lives in one server process, so every later
 * `tasks/get`, `tasks/result` or `tasks/cancel` must reach that same
 * instance: the table is how the daemon finds it, and how it tells a task
 * that is lost with its instance from one it never made.
 *
 * Every entry has a TTL (the one mcpx asked the server for, or the server's
 * shorter one) and is forgotten when read after it: there is no sweeper, and
 * the table holds nothing a reader could not still ask for (decision 0035).
 *
 * @module
 */

import type { Task } from "@modelcontextprotocol/client";

/** The TTL a task asks for when no setting says (`tasks.ttl`'s default), ms. */
export const DEFAULT_TASK_TTL_MS = 5 * 60_000;

/** What the table needs of an instance: its id, whether it is gone, and why. */
export interface TaskInstance {
  readonly id: string;
  readonly closed: boolean;
  readonly key: string;
  readonly exit?: { reason: string };
}

/** Who asked for a task: the caller's session and run, when it had them. */
export interface TaskCaller {
  session?: string;
  run?: string;
}

/** One task mcpx made. */
export interface TaskEntry<I extends TaskInstance = TaskInstance> {
  taskId: string;
  namespace: string;
  /** The tool's real name. */
  tool: string;
  /** The instance that made the task, and alone knows it. */
  instance: I;
  caller: TaskCaller;
  /** Epoch ms when the task was made. */
  createdAt: number;
  /** Epoch ms after which the table forgets it. */
  expiresAt: number;
  /** The task as the server last described it (`tasks/get`, `tasks/list`, or its creation). */
  task: Task;
}

/**
 * The tasks one daemon made, keyed by task id.
 *
 * @example
 * ```ts
 * import { TaskTable } from "./task_table.ts";
 * const table = new TaskTable(60_000);
 * const instance = { id: "i1", closed: false, key: "global" };
 * const task = { taskId: "t1", status: "working" as const, createdAt: "", lastUpdatedAt: "", ttl: 60_000 };
 * table.add({ taskId: "t1", namespace: "everything", tool: "x", instance, caller: {}, task }, 0);
 * if (table.get("t1", 1_000)?.namespace !== "everything") throw new Error();
 * if (table.get("t1", 60_001) !== undefined) throw new Error();
 * ```
 */
export class TaskTable<I extends TaskInstance = TaskInstance> {
  /** The TTL asked for every task when the caller names none, in ms (setting `tasks.ttl`). */
  readonly ttlMs: number;
  #entries = new Map<string, TaskEntry<I>>();

  /**
   * @param ttlMs The default TTL in ms.
   * @throws {RangeError} For a TTL that is not a whole number of ms ≥ 1: mcpx never asks for an
   *   unbounded task.
   */
  constructor(ttlMs: number) {
    this.ttlMs = checkTtl(ttlMs, "tasks.ttl");
  }

  /**
   * Records a task its instance just made. The entry expires after the
   * server's `ttl` when it gave a shorter one than mcpx asked for (`askedMs`,
   * default {@link ttlMs}), else after `askedMs`.
   *
   * @param now Epoch ms (a test seam).
   * @returns The entry.
   */
  add(
    made: Omit<TaskEntry<I>, "createdAt" | "expiresAt">,
    now = Date.now(),
    askedMs = this.ttlMs,
  ): TaskEntry<I> {
    const serverMs = typeof made.task.ttl === "number" && made.task.ttl > 0
      ? made.task.ttl
      : Infinity;
    const entry = { ...made, createdAt: now, expiresAt: now + Math.min(askedMs, serverMs) };
    this.#entries.set(made.taskId, entry);
    return entry;
  }

  /** The entry for `taskId`, or undefined when none was made or it expired (then forgotten). */
  get(taskId: string, now = Date.now()): TaskEntry<I> | undefined {
    const entry = this.#entries.get(taskId);
    if (entry && entry.expiresAt <= now) {
      this.#entries.delete(taskId);
      return undefined;
    }
    return entry;
  }

  /** Every unexpired entry, oldest first; expired ones are forgotten. */
  list(now = Date.now()): TaskEntry<I>[] {
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(id);
    }
    return [...this.#entries.values()].sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Keeps the server's latest word on a task (its status and message); unknown ids are ignored. */
  update(task: Task): void {
    const entry = this.#entries.get(task.taskId);
    if (entry) entry.task = { ...entry.task, ...task };
  }

  /** Forgets a task (its instance is gone). */
  delete(taskId: string): void {
    this.#entries.delete(taskId);
  }
}

/**
 * A TTL checked: a whole number of ms, at least 1.
 * @param what Names the value in the error (`tasks.ttl`, `taskTtlMs`).
 * @throws {RangeError} naming `what` and the value.
 */
export function checkTtl(ms: number, what: string): number {
  if (!Number.isInteger(ms) || ms < 1) {
    throw new RangeError(
      `${what} must be a duration of at least 1 ms, got ${JSON.stringify(ms)}; ` +
        `mcpx never asks for a task that never expires (e.g. set it to 5m)`,
    );
  }
  return ms;
}
