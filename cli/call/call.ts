/**
 * `mcpx call <namespace>.<tool> [json | - | @file]`: one tool call through
 * the daemon, no script runtime (spec 000, "Calls without a JavaScript
 * runtime"). Exit 1 with the tool's text on stderr when it returns `isError`.
 *
 * The name goes to the daemon as given: it holds the listing in memory,
 * resolves the name (a tool's identifier or real name, a namespace or its
 * server's name), lists a server never listed first, and answers a typo with
 * the nearest names (engine/call_target.ts), so a call reads no schema cache
 * however many servers are configured (issue 11).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { type CallResult, renderResult } from "./render_result.ts";
import { noToolsError } from "../../discovery/view.ts";
import type { ServerSpec } from "../../config/types.ts";
import { parseTimeoutFlag } from "../../config/timeout_flag.ts";
import { InputError, McpxError, UsageError } from "../../core/errors.ts";
import { readBoundedFile } from "../../core/bounded_read.ts";
import { INPUT_MAX_BYTES, inputLimit } from "../../config/input_limit.ts";
import { REBUILT_META, type RebuiltNote } from "../../engine/rebuilt_note.ts";
import { VERSION } from "../../core/version.ts";
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
  const { target: ref, arguments: input, extra } = options;
  if (!ref) throw new UsageError("name the tool: `mcpx call <namespace>.<tool> '{…}'`");
  if (extra.length) {
    throw new UsageError(
      `one JSON argument is expected, got ${extra.length + 1}; quote the JSON as one word`,
    );
  }
  const dot = ref.indexOf(".");
  if (dot <= 0 || dot === ref.length - 1) {
    throw new UsageError(
      `"${ref}" is not <namespace>.<tool>; \`mcpx search <words>\` finds the name`,
    );
  }
  const args = await readArguments(ctx, input);
  const timeoutMs = typeof options.timeout === "string"
    ? parseTimeoutFlag(options.timeout)
    : undefined;

  const tool = ref.slice(dot + 1);
  const named = ref.slice(0, dot);
  // The server the name means, from the configuration alone (the daemon resolves the tool);
  // an unknown name fails here, before any daemon starts.
  const server = await ctx.configuredServer(named);
  const namespace = server?.namespace ?? named;
  // Refused here, before any daemon: the configuration keeps it from starting (untrusted, unset ${VAR}).
  if (server?.unavailable) {
    const { namespace, name, unavailable } = server;
    throw unavailable.code === "untrusted"
      ? noToolsError({
        namespace,
        server: name,
        description: "",
        tools: [],
        error: unavailable.message,
        unavailable,
      })!
      : new McpxError("server-unavailable", unavailable.message);
  }
  const notes: string[] = [];
  const note = sessionNote(ctx, server);
  if (note) notes.push(note);

  // An exclusive server may be held by another caller: say what this call waits for.
  const watch = server?.pool.sharing === "exclusive" ? new AbortController() : undefined;
  // On a terminal, a line shows the progress the server reports (cli/call/call_progress.ts).
  const showProgress = ctx.io.errIsTerminal?.() ? new AbortController() : undefined;
  const notify = watch || showProgress ? crypto.randomUUID() : undefined;
  // Said before the call waits: the session note is about this call's instance.
  if (notify) { for (const line of notes.splice(0)) ctx.io.err(`note: ${line}\n`); }
  let progressShown: Promise<void> | undefined;
  if (showProgress) {
    const { watchCallProgress } = await import("./call_progress.ts");
    progressShown = watchCallProgress(
      await ctx.existingDaemonSocket(),
      notify!,
      `${namespace}.${tool}`,
      (text) => ctx.io.errRaw ? ctx.io.errRaw(text) : ctx.io.err(text),
      { signal: showProgress.signal, version: VERSION, token: await ctx.endpointToken() },
    );
  }
  if (watch) {
    const { watchLeaseWaits } = await import("../../wire/lease_waits.ts");
    watchLeaseWaits(
      await ctx.existingDaemonSocket(),
      notify!,
      (line) => ctx.io.err(`note: ${line}\n`),
      { signal: watch.signal, version: VERSION, token: await ctx.endpointToken() },
    );
  }
  let answer: CallResult | TaskHandle;
  try {
    answer = await ctx.request<CallResult | TaskHandle>("call", {
      namespace,
      tool,
      arguments: args,
      // The daemon names the limit that passed: this call's own when given.
      ...(timeoutMs ? { timeoutMs, timeoutSetting: "--timeout" } : {}),
      ...(notify ? { notify } : {}),
      // A task-only tool runs as a task even without --task: it asks for this TTL either way.
      ...(options.task ? { task: true } : {}),
      taskTtlMs: await ctx.setting("tasks.ttl"),
      // Attaches to the call a question was asked in; nothing is sent to the server again.
      ...(options.resume ? { resume: options.resume } : {}),
    });
  } finally {
    watch?.abort();
    // Erased before anything else is printed on the terminal.
    showProgress?.abort();
    await progressShown;
  }
  if ("task" in answer && answer.task) return ok(withFollow(answer as TaskHandle), notes);
  // A server's question: answered with the command that answers it, exit 75 (decision 0040).
  const asked = questionOf(answer);
  if (asked) return question({ question: asked }, notes);
  return resultOutcome(answer as CallResult, `${namespace}.${tool}`, notes);
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

/**
 * For a server keyed by session (`scope` `session` or `parent-session`) when
 * this call has no session key: the daemon then gives the call a process of
 * its own, stopped after it (engine/scope_key.ts), so any state is lost.
 */
function sessionNote(ctx: CliContext, server: ServerSpec | undefined): string | undefined {
  const scope = server?.pool.scope;
  if (scope !== "session" && scope !== "parent-session") return undefined;
  if (ctx.session || (scope === "parent-session" && ctx.env.MCPX_PARENT_SESSION_ID)) {
    return undefined;
  }
  const unset = scope === "session"
    ? "no session is set"
    : "neither MCPX_PARENT_SESSION_ID nor a session is set";
  return `${server!.namespace} is scoped by ${scope} and ${unset}, so this call gets a process ` +
    `of its own that ends with it; pass --session <key> or set MCPX_SESSION_ID to keep one ` +
    `across calls`;
}

export async function readArguments(
  ctx: CliContext,
  input: string | undefined,
): Promise<Record<string, unknown>> {
  if (input === undefined) return {};
  let text = input;
  let source = "";
  if (input === "-") {
    const limit = inputLimit(await ctx.setting(INPUT_MAX_BYTES));
    text = await ctx.io.readStdin("the arguments on stdin", limit);
    source = "stdin";
  } else if (input.startsWith("@")) {
    const path = input.slice(1);
    if (path === "") {
      throw new UsageError(`"@" names no file; write @<file>, e.g. @args.json, or - for stdin`);
    }
    const limit = inputLimit(await ctx.setting(INPUT_MAX_BYTES));
    try {
      const full = path.startsWith("/") ? path : `${ctx.cwd}/${path}`;
      text = new TextDecoder().decode(
        await readBoundedFile(full, `the arguments file ${path}`, limit),
      );
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new UsageError(`cannot read arguments from ${path}: ${(error as Error).message}`);
    }
    source = path;
  }
  // Editors on Windows start files with a UTF-8 byte order mark; JSON.parse refuses it.
  if (source) text = text.replace(/^\uFEFF/, "");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `the arguments${source ? ` in ${source}` : ""} are not JSON (${
        (error as Error).message
      }); pass an object such as '{"message":"hi"}'`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`the arguments must be a JSON object, got ${text.trim().slice(0, 60)}`);
  }
  return value as Record<string, unknown>;
}
