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

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";
import { printJson } from "./json_out.ts";
import { type CallResult, renderResult } from "./render_result.ts";
import { parseTimeoutFlag } from "../config/timeout_flag.ts";
import { noConfigMessage } from "../config/discover.ts";
import { McpxError, UsageError } from "../core/errors.ts";
import { shellWord } from "../config/shell_word.ts";
import type { TaskRow } from "../engine/tasks.ts";
import type { InputOf } from "../ops/op.ts";
import type { tasks } from "../ops/task_ops.ts";

const ACTIONS = ["ls", "get", "result", "cancel"] as const;

export async function run(ctx: CliContext, input: InputOf<typeof tasks>): Promise<number> {
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
    const rows = await ctx.request<TaskRow[]>("tasks", limit);
    if (await ctx.json()) {
      printJson(ctx.io, { tasks: rows });
    } else if (rows.length === 0) {
      ctx.io.out("no tasks: `mcpx call --task <namespace>.<tool> '{…}'` makes one\n");
    } else {
      ctx.io.out(renderTable(
        ["TASK", "TOOL", "STATUS", "INSTANCE", "EXPIRES", "MESSAGE"],
        rows.map((r) => [
          r.taskId,
          `${r.namespace}.${r.tool}`,
          r.status,
          `${r.instance} (${r.key})`,
          r.expiresAt,
          truncate(r.statusMessage ?? "", 60),
        ]),
      ));
    }
    return 0;
  }
  const taskId = input.id;
  if (!taskId) {
    throw new UsageError(
      `name the task: \`mcpx tasks ${action} <id>\` (\`mcpx tasks ls\` lists them)`,
    );
  }
  if (action === "result") {
    const result = await ctx.request<CallResult>("taskResult", { taskId, ...limit });
    if (input.raw || await ctx.json()) {
      printJson(ctx.io, result);
      return result.isError ? 1 : 0;
    }
    const text = renderResult(result);
    if (result.isError) {
      ctx.io.err(`task ${taskId} ended with an error:\n${text}\n`);
      return 1;
    }
    ctx.io.out(text.endsWith("\n") || text === "" ? text : text + "\n");
    return 0;
  }
  const row = await ctx.request<TaskRow>(action === "get" ? "taskGet" : "taskCancel", {
    taskId,
    ...limit,
  });
  if (await ctx.json()) {
    printJson(ctx.io, row);
    return 0;
  }
  const id = shellWord(row.taskId);
  ctx.io.out(
    `task ${row.taskId} (${row.namespace}.${row.tool}): ${row.status}` +
      `${row.statusMessage ? `: ${row.statusMessage}` : ""}\n`,
  );
  if (row.status === "working" || row.status === "input_required") {
    ctx.io.out(`  wait for its result: mcpx tasks result ${id}\n`);
  } else if (row.status === "completed" || row.status === "failed") {
    ctx.io.out(`  its result: mcpx tasks result ${id}\n`);
  }
  return 0;
}
