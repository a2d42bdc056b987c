/**
 * One `mcpx serve` tool call, run the way the command line runs the op: a
 * context of its own (the serve command's configuration and setting flags,
 * `--json` on, the MCP session's key as `--session`, the client's cancel as
 * its signal), the op's command module, and what it printed turned into an
 * MCP tool result: the JSON text as text content and as `structuredContent`
 * (MCP 2025-06-18, "Structured content"). Daemon ops reach the daemon through
 * wire/daemon_request.ts as `mcpx <op>` does; scripts run beside the servers
 * as `mcpx exec` does (decision 0044).
 *
 * @module
 */

import { memoryIo } from "../../core/io.ts";
import { errorToJson, UsageError } from "../../core/errors.ts";
import { type CommandModule, loadCommand } from "../commands.ts";
import { CliContext } from "../context.ts";
import type { ContextOptions } from "../context_settings.ts";
import { opInputOf, type ServeTool } from "./serve_tools.ts";
import { type AskClient, followWithClient } from "./serve_questions.ts";
import type { InputRound } from "./serve_input.ts";
import { questionOf } from "../call/question.ts";
import { exitCodeOf, ok, type Outcome } from "../../ops/outcome.ts";
import type { WireNotification } from "../../wire/wire.ts";
import * as z from "zod";

/** Who a tool call runs for. */
export interface ServeCaller {
  /** The mcpx session key the call leases under; absent: the call is its own caller. */
  session?: string;
  /**
   * Whose questions the call raises, when not its session's (wire/caller.ts
   * `owner`); absent with no session, one is made for this request alone.
   */
  owner?: string;
  /** Aborted when the client cancels the request (`notifications/cancelled`) or leaves. */
  signal: AbortSignal;
  /** Asks the client a server's question; absent: the question is the call's answer. */
  ask?: AskClient;
  /**
   * A 2026-07-28 request's round trip (cli/serve/serve_input.ts): a question the
   * client can answer becomes `input_required`, and a retry resumes the call.
   */
  input?: InputRound;
  /**
   * Told each notification an upstream tool call's server sends while it
   * runs (its progress and log messages), in order and before the call's
   * answer, for serve to pass on (decisions 0073, 0078).
   */
  onNotification?: (notification: WireNotification) => void;
}

/** An MCP `CallToolResult`, as the SDK's tool callback returns it. */
export interface ToolAnswer {
  [key: string]: unknown;
  /** Text items, or any MCP content item a server's own result holds ({@link serverResult}). */
  content: { type: string; text?: string; [key: string]: unknown }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * The context one serve request runs a command in: serve's own options, the
 * caller's session (never the `MCPX_SESSION_ID` serve was started with), an
 * in-memory `Io`, the request's signal and no stdin for scripts.
 *
 * @param json Whether the command prints `--json`.
 */
export function serveContext(
  base: ContextOptions,
  caller: Pick<ServeCaller, "session" | "owner" | "signal" | "onNotification">,
  json: boolean,
): { ctx: CliContext; io: ReturnType<typeof memoryIo>; env: Record<string, string> } {
  const io = memoryIo();
  const env = { ...base.env };
  delete env.MCPX_SESSION_ID;
  const ctx = new CliContext({
    ...base,
    io,
    env,
    session: caller.session,
    ...(caller.owner ? { owner: caller.owner } : {}),
    ...(caller.onNotification ? { onNotification: caller.onNotification } : {}),
    flags: { ...base.flags, "output.json": json },
    signal: caller.signal,
    // serve's stdin is its client's messages (stdio), or nothing a script should read.
    scriptStdin: "null",
  });
  return { ctx, io, env };
}

/**
 * Runs `tool` with `args` for `caller`: the op's handler, its outcome
 * rendered as a tool result (decision 0064).
 *
 * @param base The serve command's own context options (configuration, flags, env, cwd).
 * @param load The op's command module (a seam for tests; default cli/commands.ts `loadCommand`).
 * @returns The tool result; a failure is a result with `isError` naming it
 *   (as `mcpx --json` prints it), never a thrown protocol error, so the
 *   agent reads what went wrong and how to fix it.
 */
export async function runServeTool(
  base: ContextOptions,
  tool: ServeTool,
  args: Record<string, unknown>,
  caller: ServeCaller,
  load: (name: string) => Promise<CommandModule> = loadCommand,
): Promise<ToolAnswer> {
  // A client sees and answers only what its own calls raised (decision 0059): with no
  // session, this request is a caller of its own, unless it is the retry of one that was.
  const owner = caller.input?.resume?.owner ?? caller.owner ??
    (caller.session === undefined ? `serve-${crypto.randomUUID()}` : undefined);
  const { ctx, io, env } = serveContext(base, { ...caller, owner }, true);
  let outcome: Outcome;
  try {
    const input = opInputOf(tool, args);
    const module = await load(tool.op.name);
    const resumed = module.resumed ?? ((answer: unknown) => ok(answer));
    // A retry that carries an answer resumes an op that can be resumed (one a server asks in).
    const resume = module.resumed ? caller.input?.resume : undefined;
    if (resume) {
      // The client's retry carries the answer: the store takes it, and the call goes on.
      outcome = resumed(
        await ctx.request("questionAnswer", {
          id: resume.id,
          ...resume.fields,
          ...("answer" in resume.fields ? { tty: true } : {}),
          wait: true,
        }),
      );
    } else {
      outcome = await module.handle(ctx, input);
    }
    // A server asked a question: the client answers it, and the call goes on.
    if (outcome.kind === "question" && caller.ask) {
      outcome = resumed(await followWithClient(ctx, outcome.value, caller.ask));
    }
    // A 2026-07-28 client is asked by the call's answer, and sends the call again.
    const asked = outcome.kind === "question" ? questionOf(outcome.value) : undefined;
    if (asked && caller.input?.canAsk(asked)) {
      return await caller.input.ask(asked, owner) as ToolAnswer;
    }
  } catch (error) {
    if (caller.signal.aborted) return failure({ code: "cancelled", message: "cancelled" });
    const failed = error instanceof z.ZodError
      ? new UsageError(`${tool.name}: ${z.prettifyError(error).replaceAll("\n", "; ")}`)
      : error;
    let document: Record<string, unknown>;
    try {
      const { configRedactor } = await import("../../config/secrets.ts");
      document = errorToJson(failed, configRedactor(await ctx.config(), env));
    } catch {
      document = errorToJson(failed);
    }
    return failure(document, io.stderr);
  }
  const asIs = tool.op.serve?.answer === "tool-result"
    ? serverResult(outcome, io.stderr)
    : undefined;
  return asIs ?? toolAnswer(outcome, io.stderr);
}

/**
 * A server's `CallToolResult` as the tool's own answer (an op declaring
 * `serve.answer: "tool-result"`; decision 0076): its content items,
 * `structuredContent` and `isError` as the server sent them, then the op's
 * warnings, notes and stderr as further text items. Undefined when the
 * outcome's value is not such a result (a task's handle, a question, an exit).
 */
export function serverResult(outcome: Outcome, stderr = ""): ToolAnswer | undefined {
  if (outcome.kind !== "ok" && outcome.kind !== "failed") return undefined;
  const value = outcome.value as Record<string, unknown> | undefined;
  if (typeof value !== "object" || value === null || !Array.isArray(value.content)) {
    return undefined;
  }
  if ("task" in value || "question" in value) return undefined;
  const notes = noteLines(outcome, stderr);
  const structured = value.structuredContent;
  return {
    content: [
      ...value.content as ToolAnswer["content"],
      ...notes.map((text) => ({ type: "text" as const, text })),
    ],
    ...(typeof structured === "object" && structured !== null && !Array.isArray(structured)
      ? { structuredContent: structured as Record<string, unknown> }
      : {}),
    ...(value.isError === true || outcome.kind === "failed" ? { isError: true } : {}),
  };
}

/**
 * An outcome as an MCP tool result: the document as JSON text and, when it is
 * an object, as `structuredContent` (MCP 2025-06-18, "Structured content");
 * warnings, notes and anything the op wrote on stderr as further text; `isError` for
 * every kind but `ok`.
 */
export function toolAnswer(outcome: Outcome, stderr = ""): ToolAnswer {
  const value = outcome.kind === "exit" ? undefined : outcome.value;
  const text = value === undefined ? "" : JSON.stringify(value, null, 2);
  const notes = noteLines(outcome, stderr);
  const structured = typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
  const code = exitCodeOf(outcome);
  return {
    content: [
      { type: "text", text: text || `(exit ${code}, nothing printed)` },
      ...notes.map((text) => ({ type: "text" as const, text })),
    ],
    ...(structured ? { structuredContent: structured } : {}),
    ...(code !== 0 ? { isError: true } : {}),
  };
}

/** What a tool result adds as text after its document: warnings, notes, then what the op wrote on stderr. */
function noteLines(outcome: Outcome, stderr: string): string[] {
  return [
    ...(outcome.kind === "exit" ? [] : outcome.warnings ?? []).map((w) => `warning: ${w}`),
    ...(outcome.kind === "exit" ? [] : outcome.notes ?? []).map((n) => `note: ${n}`),
    ...(stderr.trim() ? [stderr.trim()] : []),
  ];
}

function failure(error: Record<string, unknown>, notes = ""): ToolAnswer {
  const text = JSON.stringify({ ok: false, error });
  return {
    content: [
      { type: "text", text },
      ...(notes.trim() ? [{ type: "text" as const, text: notes.trim() }] : []),
    ],
    isError: true,
  };
}
