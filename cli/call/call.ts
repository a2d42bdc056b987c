/**
 * `mcpx call <namespace>.<tool> [json | - | @file]`: one tool call through
 * the daemon, no script runtime (spec 000, "Calls without a JavaScript
 * runtime"). Exit 1 with the tool's text on stderr when it returns `isError`.
 *
 * The op is one declaration, command and route (ops/engine_ops.ts, decision
 * 0066): its input goes to the daemon as parsed (cli/op_request.ts), and
 * what is left here is the terminal's: a progress line, and the result's
 * kinds as outcomes. The name goes to the daemon as given: it holds the listing in memory,
 * resolves the name (a tool's identifier or real name, a namespace or its
 * server's name), lists a server never listed first, and answers a typo with
 * the nearest names (engine/call_target.ts), so a call reads no schema cache
 * however many servers are configured (issue 11). What the call waits for
 * (an exclusive instance another caller holds, a full pool) and that a
 * session-scoped server gave it a process of its own, the daemon says as
 * note lines while the call runs (daemon/live_answer.ts); the configuration
 * is read here only when no daemon answers, to refuse a name it lacks before
 * one starts (issue 24).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { type CallResult, renderResult } from "./render_result.ts";
import { UsageError } from "../../core/errors.ts";
import { requestOp } from "../op_request.ts";
import { REBUILT_META, type RebuiltNote } from "../../engine/rebuilt_note.ts";
import type { InputOf } from "../../ops/op.ts";
import type { call } from "../../ops/engine_ops.ts";
import { shellWord } from "../../config/shell_word.ts";
import { failed, ok, type Outcome, question } from "../../ops/outcome.ts";
import type { Text, TextView } from "../commands.ts";
import { questionOf } from "./question.ts";

/**
 * Calls the tool `options.target` names through the daemon.
 *
 * @returns `ok` with the tool's result, `failed` with a result that is
 *   `isError`, `question` with `{ question }` when a server asked one, or
 *   `ok` with a task's handle and its follow-up commands under `--task`.
 * @throws {UsageError} For a malformed name or arguments.
 * @throws {NotFoundError} For a namespace the configuration lacks.
 */
export async function handle(
  ctx: CliContext,
  options: InputOf<typeof call>,
): Promise<Outcome> {
  if (options.extra.length) {
    throw new UsageError(
      `one JSON argument is expected, got ${options.extra.length + 1}; quote the JSON as one word`,
    );
  }
  // On a terminal, a line shows the progress the server reports (cli/call/call_progress.ts);
  // else the context's own listener hears it (`mcpx serve` passes on what the call's server says).
  const line = ctx.io.errIsTerminal?.()
    ? (await import("./call_progress.ts")).progressLine(
      options.target,
      (text) => ctx.io.errRaw ? ctx.io.errRaw(text) : ctx.io.err(text),
    )
    : undefined;
  const onNotification = line?.onNotification ?? ctx.onNotification;
  let answer: CallResult | TaskHandle;
  try {
    // Sent as given: the daemon splits and resolves the name, reads the timeout, and says what
    // the call waits for as it waits (a note line), and what its server says (decision 0078).
    answer = await requestOp<CallResult | TaskHandle>(
      ctx,
      "call",
      options,
      {},
      onNotification ? { onNotification } : {},
    );
  } finally {
    // Erased before anything else is printed on the terminal.
    line?.erase();
  }
  if ("task" in answer && answer.task) return ok(withFollow(answer as TaskHandle));
  // A server's question: answered with the command that answers it, exit 75 (decision 0040).
  const asked = questionOf(answer);
  if (asked) return question({ question: asked });
  return resultOutcome(answer as CallResult, options.target);
}

/** A call's result as an outcome: `failed` when the tool said `isError`, its rebuilt note a note. */
function resultOutcome(result: CallResult, name?: string, notes: string[] = []): Outcome {
  const rebuilt = (result as { _meta?: Record<string, unknown> })._meta?.[REBUILT_META] as
    | RebuiltNote
    | undefined;
  if (rebuilt) {
    const why = rebuilt.why === "evicted"
      ? `its idle instance was stopped to make room for another session (max ${
        rebuilt.max ?? "?"
      } instances)`
      : "the daemon restarted or it was stopped";
    notes = [
      ...notes,
      `session ${rebuilt.session ?? rebuilt.key} had no live ` +
      `${name?.slice(0, name.indexOf(".")) ?? rebuilt.server} ` +
      `instance (${why}); a new one was started and its earlier state is gone`,
    ];
  }
  const outcome = result.isError ? failed(result, notes) : ok(result, notes);
  return name ? { ...outcome, extra: { name } } : outcome;
}

/** What the daemon answered once a question was answered inline: the call's result, or another question. */
export function resumed(answer: unknown): Outcome {
  const asked = questionOf(answer);
  return asked ? question({ question: asked }) : resultOutcome(answer as CallResult);
}

/**
 * The terminal's rendering: the result's text on stdout; a tool's error on
 * stderr with the command that shows its arguments; a task's handle with the
 * commands that follow it; `--raw`, the whole MCP result as JSON.
 */
export function text(value: CallResult | FollowedHandle, view: TextView): Text {
  const options = view.input as InputOf<typeof call>;
  if ("task" in value && value.task) {
    const { task, follow } = value as FollowedHandle;
    const ttl = typeof task.ttl === "number" ? `, kept ${task.ttl} ms` : "";
    return `task ${task.taskId}: ${task.status}${ttl}\n` +
      `  status:  ${follow.get}\n  result:  ${follow.result}\n  cancel:  ${follow.cancel}\n`;
  }
  const result = value as CallResult;
  if (options.raw) return JSON.stringify(result, null, 2) + "\n";
  const text = renderResult(result);
  if (result.isError) {
    const name = (view.extra as { name?: string } | undefined)?.name ?? options.target ??
      "the tool";
    return {
      err: `${name} returned an error:\n${text}\n` +
        (/-32602|invalid arguments|validation/i.test(text)
          ? `(\`mcpx types ${name}\` shows the arguments it takes)\n`
          : ""),
    };
  }
  return text.endsWith("\n") || text === "" ? text : text + "\n";
}

/** A task's handle, as the daemon answers `call` with `task` (the MCP `CreateTaskResult`). */
interface TaskHandle {
  task: { taskId: string; status: string; ttl?: number | null; pollInterval?: number };
  [key: string]: unknown;
}

/** A task's handle with the commands that follow it. */
interface FollowedHandle extends TaskHandle {
  follow: { get: string; result: string; cancel: string };
}

function withFollow(handle: TaskHandle): FollowedHandle {
  const quoted = shellWord(handle.task.taskId);
  return {
    ...handle,
    follow: {
      get: `mcpx tasks get ${quoted}`,
      result: `mcpx tasks result ${quoted}`,
      cancel: `mcpx tasks cancel ${quoted}`,
    },
  };
}
