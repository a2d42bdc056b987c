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

import type { CliContext } from "./context.ts";
import { type CallResult, renderResult } from "./render_result.ts";
import { noToolsError } from "../discovery/view.ts";
import type { ServerSpec } from "../config/types.ts";
import { parseTimeoutFlag } from "../config/timeout_flag.ts";
import { InputError, McpxError, UsageError } from "../core/errors.ts";
import { readBoundedFile } from "../core/bounded_read.ts";
import { INPUT_MAX_BYTES, inputLimit } from "../config/input_limit.ts";
import { REBUILT_META, type RebuiltNote } from "../engine/rebuilt_note.ts";
import { VERSION } from "../core/version.ts";
import type { InputOf } from "../ops/op.ts";
import type { call } from "../ops/engine_ops.ts";
import { printJson } from "./json_out.ts";
import { shellWord } from "../config/shell_word.ts";

export async function run(
  ctx: CliContext,
  options: InputOf<typeof call>,
): Promise<number> {
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
  const note = sessionNote(ctx, server);
  if (note) ctx.io.err(`note: ${note}\n`);

  // An exclusive server may be held by another caller: say what this call waits for.
  const watch = server?.pool.sharing === "exclusive" ? new AbortController() : undefined;
  // On a terminal, a line shows the progress the server reports (cli/call_progress.ts).
  const showProgress = ctx.io.errIsTerminal?.() ? new AbortController() : undefined;
  const notify = watch || showProgress ? crypto.randomUUID() : undefined;
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
    const { watchLeaseWaits } = await import("../wire/lease_waits.ts");
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
  if ("task" in answer && answer.task) return await printHandle(ctx, answer as TaskHandle);
  // A server's question: printed with the command that answers it, exit 75 (decision 0040).
  if ("question" in answer && !("content" in answer)) {
    const { followQuestions } = await import("./question.ts");
    return await followQuestions(
      ctx,
      answer,
      (r) => printResult(ctx, options, r as CallResult, namespace, tool),
    );
  }
  return await printResult(ctx, options, answer as CallResult, namespace, tool, server);
}

/** Prints a call's result (its rebuilt note first); the exit code. */
export async function printResult(
  ctx: CliContext,
  options: { raw?: boolean },
  result: CallResult,
  namespace: string,
  tool: string,
  server?: ServerSpec,
): Promise<number> {
  const rebuilt = (result as { _meta?: Record<string, unknown> })._meta?.[REBUILT_META] as
    | RebuiltNote
    | undefined;
  if (rebuilt) {
    const why = rebuilt.why === "evicted"
      ? `its idle instance was stopped to make room for another session (max ${
        server?.pool.max ?? "?"
      } instances)`
      : "the daemon restarted or it was stopped";
    ctx.io.err(
      `note: session ${
        rebuilt.session ?? rebuilt.key
      } had no live ${namespace} instance (${why}); ` +
        `a new one was started and its earlier state is gone\n`,
    );
  }
  if (options.raw || await ctx.json()) {
    printJson(ctx.io, result);
    return result.isError ? 1 : 0;
  }
  const text = renderResult(result);
  if (result.isError) {
    ctx.io.err(`${namespace}.${tool} returned an error:\n${text}\n`);
    if (/-32602|invalid arguments|validation/i.test(text)) {
      ctx.io.err(`(\`mcpx types ${namespace}.${tool}\` shows the arguments it takes)\n`);
    }
    return 1;
  }
  ctx.io.out(text.endsWith("\n") || text === "" ? text : text + "\n");
  return 0;
}

/** A task's handle, as the daemon answers `call` with `task` (the MCP `CreateTaskResult`). */
interface TaskHandle {
  task: { taskId: string; status: string; ttl?: number | null; pollInterval?: number };
  [key: string]: unknown;
}

/** Prints a task's handle and the commands that follow it; exit 0. */
async function printHandle(ctx: CliContext, handle: TaskHandle): Promise<number> {
  const id = handle.task.taskId;
  const quoted = shellWord(id);
  const follow = {
    get: `mcpx tasks get ${quoted}`,
    result: `mcpx tasks result ${quoted}`,
    cancel: `mcpx tasks cancel ${quoted}`,
  };
  if (await ctx.json()) {
    printJson(ctx.io, { ...handle, follow });
    return 0;
  }
  const ttl = typeof handle.task.ttl === "number" ? `, kept ${handle.task.ttl} ms` : "";
  ctx.io.out(
    `task ${id}: ${handle.task.status}${ttl}\n` +
      `  status:  ${follow.get}\n  result:  ${follow.result}\n  cancel:  ${follow.cancel}\n`,
  );
  return 0;
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
