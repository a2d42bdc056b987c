/**
 * The handlers of the task routes (ops/task_routes.ts), spread into
 * ops/daemon_ops.ts's table: each reaches the daemon's task table
 * (engine/tasks.ts).
 *
 * @module
 */

import type { RouteHandler } from "./route_handler.ts";
import type { TASK_ROUTES } from "./task_routes.ts";
import { taskCancel, taskGet, taskList, taskResult } from "../engine/tasks.ts";

type Routes = typeof TASK_ROUTES;

/** The task routes' handlers, by route name. */
export const TASK_HANDLERS: { [K in keyof Routes]: RouteHandler<Routes[K]> } = {
  tasks: (d, p, signal) => taskList(d.tasks, { timeoutMs: p.timeoutMs, signal }),
  taskGet: (d, p, signal) => taskGet(d.tasks, p.taskId, { timeoutMs: p.timeoutMs, signal }),
  taskResult: (d, p, signal) => taskResult(d.tasks, p.taskId, { timeoutMs: p.timeoutMs, signal }),
  taskCancel: (d, p, signal) => taskCancel(d.tasks, p.taskId, { timeoutMs: p.timeoutMs, signal }),
};
