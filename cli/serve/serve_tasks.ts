/**
 * Tasks on `mcpx serve`'s side (MCP 2025-11-25, "Tasks"): a client may ask
 * for a `tools/call` of `mcpx_call` or `mcpx_exec` to run as a task (its
 * params carry `task: { ttl }`); serve answers at once with the task's handle
 * and runs the call in the background, and `tasks/get`, `tasks/result`,
 * `tasks/list` and `tasks/cancel` follow it (decision 0050).
 *
 * The SDK (2.4.0) keeps the task vocabulary as wire schemas only, with no
 * runtime, so the store is ours: one per server instance, that is per client
 * connection (stdio) or per `Mcp-Session-Id` (2025-era HTTP); a task id is
 * known only to the client that made it. Every task has a TTL (`tasks.ttl`
 * bounds what a client may ask); a task past it is cancelled if still
 * running and forgotten, read lazily on each request (no timer).
 *
 * @module
 */

import * as z from "zod";

/** A task's status (MCP 2025-11-25, "Task Status"). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task as the protocol shows it (MCP 2025-11-25 `Task`). */
export interface TaskView {
  taskId: string;
  status: TaskStatus;
  /** Lifetime from creation, ms. */
  ttl: number;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Suggested pause between two `tasks/get`, ms. */
  pollInterval: number;
  statusMessage?: string;
}

/** A tool result as the SDK's tool callbacks return one. */
export type ToolResult = Record<string, unknown> & { isError?: boolean };

/** The `_meta` key that ties a result to its task (MCP 2025-11-25, "Related Task Metadata"). */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** What serve suggests between two `tasks/get`, ms. */
export const TASK_POLL_MS = 500;

/** How many tasks one `tasks/list` page holds. */
export const TASK_PAGE_SIZE = 50;

/** A protocol error as the SDK's `ProtocolError` carries it (code, message). */
export class TaskRequestError extends Error {
  override name = "TaskRequestError";
  /** JSON-RPC error code: -32602 (invalid params) for an unknown task or a bad cursor. */
  readonly code = -32602;
}

/** A waiting `tasks/result` request, through which a running task's questions reach the client. */
export type TaskChannel = unknown;

interface Entry {
  view: TaskView;
  abort: AbortController;
  done: Promise<void>;
  result?: ToolResult;
  /** ms since the epoch past which the task is forgotten. */
  expires: number;
  /** `tasks/result` requests waiting now, newest last. */
  channels: TaskChannel[];
  /** Told when a `tasks/result` starts waiting. */
  channelOpened?: () => void;
}

/**
 * The tasks of one client connection.
 *
 * @param maxTtlMs The most a client may ask for (`tasks.ttl`), and what it
 *   gets when it asks for none, ms.
 * @param now The clock, ms since the epoch (a seam for tests).
 */
export class ServeTaskStore {
  readonly #tasks = new Map<string, Entry>();
  readonly #maxTtlMs: number;
  readonly #now: () => number;

  constructor(maxTtlMs: number, now: () => number = Date.now) {
    if (!(maxTtlMs >= 1)) throw new RangeError(`a task TTL is at least 1 ms, got ${maxTtlMs}`);
    this.#maxTtlMs = maxTtlMs;
    this.#now = now;
  }

  /**
   * Starts `run` as a task and answers its handle at once.
   *
   * @param askedTtl The client's `task.ttl`, ms (held to at most the store's maximum).
   * @param run The call, given its task's id; told to stop by the signal (`tasks/cancel`, TTL passed, {@link close}).
   *   A result with `isError` ends the task `failed`; a throw ends it `failed` naming the error.
   */
  create(
    askedTtl: number | undefined,
    run: (signal: AbortSignal, taskId: string) => Promise<ToolResult>,
  ): TaskView {
    this.#sweep();
    const ttl = Math.max(1, Math.min(askedTtl ?? this.#maxTtlMs, this.#maxTtlMs));
    const at = this.#now();
    const stamp = new Date(at).toISOString();
    const view: TaskView = {
      taskId: crypto.randomUUID(),
      status: "working",
      ttl,
      createdAt: stamp,
      lastUpdatedAt: stamp,
      pollInterval: TASK_POLL_MS,
    };
    const abort = new AbortController();
    const entry: Entry = {
      view,
      abort,
      expires: at + ttl,
      done: Promise.resolve(),
      channels: [],
    };
    // Known before the call starts, so the call can ask through it at once.
    this.#tasks.set(view.taskId, entry);
    entry.done = (async () => {
      let result: ToolResult;
      try {
        result = await run(abort.signal, view.taskId);
      } catch (error) {
        result = {
          content: [{ type: "text", text: (error as Error)?.message ?? String(error) }],
          isError: true,
        };
      }
      if (entry.view.status === "cancelled") return;
      entry.result = result;
      this.#set(entry, result.isError ? "failed" : "completed");
    })();
    return { ...view };
  }

  /** `tasks/get`. @throws {TaskRequestError} for a task this connection does not hold. */
  get(taskId: string): TaskView {
    return { ...this.#entry(taskId).view };
  }

  /**
   * `tasks/result`: waits for the task to end, then its result tied to the
   * task in `_meta`. A cancelled task answers an error result saying so.
   *
   * @param signal The `tasks/result` request's own (the client gave up waiting; the task goes on).
   * @param channel The request itself, through which the task's questions are put meanwhile ({@link ask}).
   * @throws {TaskRequestError} for an unknown task.
   */
  async result(taskId: string, signal?: AbortSignal, channel?: TaskChannel): Promise<ToolResult> {
    const entry = this.#entry(taskId);
    if (channel !== undefined) {
      entry.channels.push(channel);
      entry.channelOpened?.();
    }
    try {
      await this.#ended(entry, signal);
    } finally {
      if (channel !== undefined) entry.channels.splice(entry.channels.indexOf(channel), 1);
    }
    const result = entry.result ?? {
      content: [{ type: "text", text: `task ${taskId} was cancelled before it finished` }],
      isError: true,
    };
    const meta = (result._meta ?? {}) as Record<string, unknown>;
    return { ...result, _meta: { ...meta, [RELATED_TASK]: { taskId } } };
  }

  /**
   * Puts a running task's question to its client (MCP 2025-11-25, "Input
   * Required Status"): the task shows `input_required` until a `tasks/result`
   * request is waiting, `send` asks through that request, and the task is
   * `working` again.
   *
   * @param send Asks the client through the channel, answering what it answered.
   * @throws what `send` throws; an AbortError when the task is cancelled or forgotten first.
   */
  async ask<T>(taskId: string, send: (channel: TaskChannel) => Promise<T>): Promise<T> {
    const entry = this.#entry(taskId);
    this.#set(entry, "input_required", "waiting for tasks/result to put a question to the client");
    try {
      while (entry.channels.length === 0) {
        const opened = Promise.withResolvers<void>();
        entry.channelOpened = opened.resolve;
        const stopped = Promise.withResolvers<never>();
        const onAbort = () => stopped.reject(entry.abort.signal.reason);
        if (entry.abort.signal.aborted) onAbort();
        entry.abort.signal.addEventListener("abort", onAbort, { once: true });
        try {
          await Promise.race([opened.promise, stopped.promise]);
        } finally {
          entry.abort.signal.removeEventListener("abort", onAbort);
          entry.channelOpened = undefined;
        }
      }
      return await send(entry.channels[entry.channels.length - 1]);
    } finally {
      if (entry.view.status === "input_required") this.#set(entry, "working");
    }
  }

  /** Waits for the task to end, or `signal` (the waiting request's own) to abort. */
  async #ended(entry: Entry, signal?: AbortSignal): Promise<void> {
    if (signal) {
      const stop = Promise.withResolvers<never>();
      const onAbort = () => stop.reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        await Promise.race([entry.done, stop.promise]);
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    } else await entry.done;
  }

  /**
   * `tasks/cancel`: stops a running task (the call's signal aborts, so the
   * daemon stops the upstream call or the script).
   *
   * @throws {TaskRequestError} for an unknown task, or one already ended.
   */
  cancel(taskId: string): TaskView {
    const entry = this.#entry(taskId);
    if (entry.view.status !== "working" && entry.view.status !== "input_required") {
      throw new TaskRequestError(
        `task ${taskId} has already ended (${entry.view.status}); only a working task can be cancelled`,
      );
    }
    this.#set(entry, "cancelled", "cancelled by the client");
    entry.abort.abort(new DOMException("task cancelled", "AbortError"));
    return { ...entry.view };
  }

  /**
   * `tasks/list`: this connection's tasks, oldest first, {@link TASK_PAGE_SIZE} a page.
   *
   * @throws {TaskRequestError} for a cursor this store did not hand out.
   */
  list(cursor?: string): { tasks: TaskView[]; nextCursor?: string } {
    this.#sweep();
    const all = [...this.#tasks.values()].map((e) => ({ ...e.view }));
    let from = 0;
    if (cursor !== undefined) {
      const at = all.findIndex((t) => t.taskId === cursor);
      if (at < 0) {
        throw new TaskRequestError(
          `tasks/list cursor ${
            JSON.stringify(cursor)
          } is not one this server handed out (or its task expired); list again without a cursor`,
        );
      }
      from = at;
    }
    const tasks = all.slice(from, from + TASK_PAGE_SIZE);
    const next = all[from + TASK_PAGE_SIZE];
    return { tasks, ...(next ? { nextCursor: next.taskId } : {}) };
  }

  /** Cancels every running task (the client left, or serve stops). */
  close(): void {
    for (const entry of this.#tasks.values()) entry.abort.abort();
    this.#tasks.clear();
  }

  #entry(taskId: string): Entry {
    this.#sweep();
    const entry = this.#tasks.get(taskId);
    if (!entry) {
      throw new TaskRequestError(
        `no task ${JSON.stringify(taskId)} here: never made on this connection, or its TTL passed`,
      );
    }
    return entry;
  }

  #set(entry: Entry, status: TaskStatus, message?: string): void {
    entry.view.status = status;
    entry.view.lastUpdatedAt = new Date(this.#now()).toISOString();
    if (message) entry.view.statusMessage = message;
  }

  /** Forgets tasks past their TTL, stopping any still running. */
  #sweep(): void {
    const now = this.#now();
    for (const [id, entry] of this.#tasks) {
      if (entry.expires > now) continue;
      entry.abort.abort();
      this.#tasks.delete(id);
    }
  }
}

/** What the `tasks/*` requests carry (MCP 2025-11-25). */
export const TASK_ID_PARAMS = z.looseObject({ taskId: z.string() });
/** `tasks/list`'s params. */
export const TASK_LIST_PARAMS = z.looseObject({ cursor: z.string().optional() });
