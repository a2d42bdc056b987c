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

import { memoryIo } from "../core/io.ts";
import { errorToJson, UsageError } from "../core/errors.ts";
import { type CommandModule, loadCommand } from "./commands.ts";
import { CliContext } from "./context.ts";
import type { ContextOptions } from "./context_settings.ts";
import { opInputOf, type ServeTool } from "./serve_tools.ts";
import { type AskClient, followWithClient } from "./serve_questions.ts";
import type { InputRound } from "./serve_input.ts";
import { questionOf } from "./question.ts";
import { EXIT } from "../core/errors.ts";
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
   * A 2026-07-28 request's round trip (cli/serve_input.ts): a question the
   * client can answer becomes `input_required`, and a retry resumes the call.
   */
  input?: InputRound;
}

/** An MCP `CallToolResult`, as the SDK's tool callback returns it. */
export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
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
  caller: { session?: string; owner?: string; signal: AbortSignal },
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
    flags: { ...base.flags, "output.json": json },
    signal: caller.signal,
    // serve's stdin is its client's messages (stdio), or nothing a script should read.
    scriptStdin: "null",
  });
  return { ctx, io, env };
}

/**
 * Runs `tool` with `args` for `caller`.
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
  let code: number;
  let text: string;
  try {
    const input = opInputOf(tool, args);
    const resume = tool.op.name === "call" ? caller.input?.resume : undefined;
    if (resume) {
      // The client's retry carries the answer: the store takes it, and the call goes on.
      const result = await ctx.request("questionAnswer", {
        id: resume.id,
        ...resume.fields,
        ...("answer" in resume.fields ? { tty: true } : {}),
        wait: true,
      });
      [code, text] = [codeOf(result), JSON.stringify(result, null, 2)];
    } else {
      code = await (await load(tool.op.name)).run(ctx, input);
      text = io.stdout.trim();
    }
    // A server asked a question: the client answers it, and the call goes on.
    if (code === EXIT.tempfail && caller.ask && tool.op.name === "call") {
      const result = await followWithClient(ctx, JSON.parse(text), caller.ask);
      [code, text] = [codeOf(result), JSON.stringify(result, null, 2)];
    }
    // A 2026-07-28 client is asked by the call's answer, and sends the call again.
    const question = code === EXIT.tempfail && tool.op.name === "call"
      ? questionOf(JSON.parse(text))
      : undefined;
    if (question && caller.input?.canAsk(question)) {
      return await caller.input.ask(question, owner) as ToolAnswer;
    }
  } catch (error) {
    if (caller.signal.aborted) return failure({ code: "cancelled", message: "cancelled" });
    const failed = error instanceof z.ZodError
      ? new UsageError(`${tool.name}: ${z.prettifyError(error).replaceAll("\n", "; ")}`)
      : error;
    let document: Record<string, unknown>;
    try {
      const { configRedactor } = await import("../config/secrets.ts");
      document = errorToJson(failed, configRedactor(await ctx.config(), env));
    } catch {
      document = errorToJson(failed);
    }
    return failure(document, io.stderr);
  }
  let value: unknown;
  try {
    value = text === "" ? undefined : JSON.parse(text);
  } catch {
    value = undefined;
  }
  const structured = typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
  return {
    content: [
      { type: "text", text: text || `(exit ${code}, nothing printed)` },
      ...(io.stderr.trim() ? [{ type: "text" as const, text: io.stderr.trim() }] : []),
    ],
    // A failure's `{ ok: false, error }` document is text only: it is not the op's output.
    ...(structured && !(structured.ok === false && "error" in structured)
      ? { structuredContent: structured }
      : {}),
    ...(code !== 0 ? { isError: true } : {}),
  };
}

/** The exit code `mcpx call` gives what the daemon answered: 1 a tool error, 75 a question. */
function codeOf(result: unknown): number {
  const r = result as { isError?: boolean } | null;
  return r?.isError ? 1 : r && typeof r === "object" && "question" in r ? EXIT.tempfail : 0;
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
