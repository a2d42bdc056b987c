/**
 * `mcpx tasks [ls] | get <id> | result <id> | cancel <id>`: follow the tasks
 * `mcpx call --task` made (MCP 2025-11-25, "Tasks"). The daemon sends each
 * request to the instance that made the task (engine/tasks.ts); a task whose
 * instance stopped is reported lost, and one the daemon does not know (its
 * TTL passed, `tasks.ttl`) unknown. `result` waits for the task to end, as
 * long as `--timeout` (default the server's `callTimeout`) allows, and prints
 * the tool's result as `mcpx call` does.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { renderTable, truncate } from "../table.ts";
import type { Text, TextView } from "../commands.ts";
import { type Answered, failed, ok } from "../../ops/outcome.ts";
import { type CallResult, renderResult } from "./render_result.ts";
import { parseTimeoutFlag } from "../../config/timeout_flag.ts";
import { noConfigMessage } from "../../config/discover.ts";
import { McpxError, UsageError } from "../../core/errors.ts";
import { shellWord } from "../../config/shell_word.ts";
import type { TaskRow } from "../../engine/tasks.ts";
import type { InputOf } from "../../ops/op.ts";
import type { tasks } from "../../ops/task_ops.ts";

const ACTIONS = ["ls", "get", "result", "cancel"] as const;

/** What one `mcpx tasks` action answers: the list, one task's row, or its result. */
type TasksAnswer = { tasks: TaskRow[] } | TaskRow | CallResult;

/**
 * Runs one `mcpx tasks` action on the daemon.
 *
 * @returns `ok` with `{ tasks }` (ls), the task's row (get, cancel) or its
 *   result (result; `failed` when the result is `isError`).
 * @throws {UsageError} For an unknown action, a missing id, or an id given to `ls`.
 * @throws {McpxError} `no-config` when no configuration is found.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof tasks>,
): Promise<Answered<TasksAnswer>> {
  const action = input.action ?? "ls";
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(
      `unknown tasks action "${action}"; use one of ${ACTIONS.join(", ")}: ` +
        "`mcpx tasks get <id>`",
    );
  }
  const config = await ctx.config();
  if (config.path === null) {
    throw new McpxError("no-config", noConfigMessage(config.searched ?? [], ctx.cwd));
  }
  const timeoutMs = typeof input.timeout === "string" ? parseTimeoutFlag(input.timeout) : undefined;
  const limit = timeoutMs !== undefined ? { timeoutMs } : {};
  if (action === "ls") {
    if (input.id !== undefined) {
      throw new UsageError(
        `\`mcpx tasks ls\` takes no id; \`mcpx tasks get ${input.id}\` shows one`,
      );
    }
    return ok({ tasks: await ctx.request<TaskRow[]>("tasks", limit) });
  }
  const taskId = input.id;
  if (!taskId) {
    throw new UsageError(
      `name the task: \`mcpx tasks ${action} <id>\` (\`mcpx tasks ls\` lists them)`,
    );
  }
  if (action === "result") {
    const result = await ctx.request<CallResult>("taskResult", { taskId, ...limit });
    return result.isError ? failed(result) : ok(result);
  }
  return ok(
    await ctx.request<TaskRow>(action === "get" ? "taskGet" : "taskCancel", { taskId, ...limit }),
  );
}

/**
 * The terminal's rendering, by action: the tasks as a table; a task's status
 * and the command that follows it; its result as `mcpx call` prints one (a
 * tool's error on stderr; `--raw`, the whole MCP result as JSON).
 */
export function text(value: TasksAnswer, view: TextView): Text {
  const input = view.input as InputOf<typeof tasks>;
  const action = input.action ?? "ls";
  if (action === "ls") {
    const rows = (value as { tasks: TaskRow[] }).tasks;
    if (rows.length === 0) {
      return "no tasks: `mcpx call --task <namespace>.<tool> '{…}'` makes one\n";
    }
    return renderTable(
      ["TASK", "TOOL", "STATUS", "INSTANCE", "EXPIRES", "MESSAGE"],
      rows.map((r) => [
        r.taskId,
        `${r.namespace}.${r.tool}`,
        r.status,
        `${r.instance} (${r.key})`,
        r.expiresAt,
        truncate(r.statusMessage ?? "", 60),
      ]),
    );
  }
  if (action === "result") {
    const result = value as CallResult;
    if (input.raw) return JSON.stringify(result, null, 2) + "\n";
    const text = renderResult(result);
    if (result.isError) return { err: `task ${input.id} ended with an error:\n${text}\n` };
    return text.endsWith("\n") || text === "" ? text : text + "\n";
  }
  const row = value as TaskRow;
  const id = shellWord(row.taskId);
  let out = `task ${row.taskId} (${row.namespace}.${row.tool}): ${row.status}` +
    `${row.statusMessage ? `: ${row.statusMessage}` : ""}\n`;
  if (row.status === "working" || row.status === "input_required") {
    out += `  wait for its result: mcpx tasks result ${id}\n`;
  } else if (row.status === "completed" || row.status === "failed") {
    out += `  its result: mcpx tasks result ${id}\n`;
  }
  return out;
}
