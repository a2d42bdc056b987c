/**
 * The call path from a script to the daemon: one tool call as one HTTP/1.1
 * `POST /v1/call` on a fresh unix-socket connection, spoken through the one
 * wire module (wire/wire.ts, decision 0007), with the caller's context from
 * the run's environment; failures as {@link McpxCallError}.
 *
 * @module
 */

import {
  daemonLostMessage,
  encodeRequest,
  ExchangeFailure,
  exchangeRequest,
  traceLine,
  UnsafeSocketDirectory,
} from "../wire/wire.ts";
import type { WireErrorBody } from "../wire/wire.ts";
import { callerBody } from "../wire/caller.ts";
import { readAnswer } from "../wire/answer.ts";
import { rtConfig } from "./client_config.ts";
import { runtimeIo } from "./host_runtime.ts";
import { unwrapResult } from "./tool_result.ts";

/**
 * The daemon refused or failed a call (`code` as on the wire: `not-found`,
 * `server`, `timeout`, `version-mismatch`, …), or no daemon answered and
 * nothing was sent (`daemon-unavailable`), or the connection was lost after
 * the call was sent, so it may or may not have run and was not sent again
 * (`daemon-lost`), or the script was not started by mcpx (`no-socket`), or
 * the socket's directory is not the user's alone, so nothing was sent
 * (`unsafe-directory`).
 */
export class McpxCallError extends Error {
  /** The daemon's error code. */
  code: string;
  /** The server's last stderr lines, when the daemon sent them. */
  stderrTail?: string;
  /** The nearest names (`not-found`). */
  suggestions?: string[];
  /** A timeout's limit, in ms (`timeout`). */
  ms?: number;
  /** The bound whose limit passed (`timeout`): `leaseTimeout`, `startTimeout`, …, `callTimeout`. */
  bound?: WireErrorBody["bound"];
  /** The setting that sets that limit (`timeout`, `input-too-large`). */
  setting?: string;
  /** An input's size limit that was passed, in bytes. */
  limit?: number;

  /**
   * A failed call, by its code.
   *
   * @param code The wire's error code, or the client's own (`daemon-lost`, …).
   * @param message What went wrong and what to do.
   * @param options `cause`: the error underneath; the wire error body's typed
   *   fields (`stderrTail`, `suggestions`, `ms`, `bound`, `setting`, `limit`), kept as data.
   */
  constructor(
    code: string,
    message: string,
    options?: { cause?: unknown } & Partial<Omit<WireErrorBody, "code" | "message">>,
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "McpxCallError";
    this.code = code;
    if (options?.stderrTail) this.stderrTail = options.stderrTail;
    if (options?.suggestions) this.suggestions = options.suggestions;
    if (options?.ms !== undefined) this.ms = options.ms;
    if (options?.bound) this.bound = options.bound;
    if (options?.setting) this.setting = options.setting;
    if (options?.limit !== undefined) this.limit = options.limit;
  }
}

/**
 * A call whose server asked a question mid-call (elicitation or sampling;
 * decision 0040): the call waits in the daemon, and `command` answers it
 * (`mcpx elicit answer <id> …`), after which `mcpx call … --resume <id>` or
 * `mcpx elicit answer <id> --wait` collects the result. Code `input-required`.
 */
export class QuestionError extends McpxCallError {
  /** The question as the daemon stores it: `id`, `kind`, `message`, `request`, `route`, `schema`, … */
  question: { id: string; command: string; [key: string]: unknown };
  /** The exact command that answers it. */
  command: string;

  constructor(what: string, question: QuestionError["question"]) {
    super(
      "input-required",
      `${what} is waiting for an answer to question ${question.id}` +
        `${
          typeof question.message === "string" && question.message ? ` ("${question.message}")` : ""
        }: ` +
        `answer it with \`${question.command}\``,
    );
    this.name = "QuestionError";
    this.question = question;
    this.command = question.command;
  }
}

/** A question as {@link CallOptions.onElicit} is given it: {@link QuestionError.question}. */
export type ElicitQuestion = QuestionError["question"];

/**
 * What an {@link CallOptions.onElicit} handler answers: the answer itself (an
 * elicitation's form fields, checked against its schema with its defaults
 * filled; `{}` for a URL-mode flow done; a sampling request's `{ text }` or
 * `{ role?, content, model? }`), `"decline"`, or `undefined` to leave the
 * question unanswered (the call then throws {@link QuestionError}).
 */
export type ElicitAnswer = Record<string, unknown> | "decline" | undefined;

/** Options of {@link callTool}. */
export interface CallOptions {
  /** Aborting closes the connection and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The daemon gives up on the call after this long (ms). */
  timeoutMs?: number;
  /**
   * Answers the server's questions during this call (elicitation and sampling,
   * decision 0040) instead of throwing {@link QuestionError}: given each
   * question, it returns the answer or `"decline"`; the client sends it
   * through the daemon (`POST /v1/questionAnswer`), the call resumes, and its
   * result (or its next question, given to the handler again) comes back. A
   * question routed to a person (`question.route === "person"`: a credential,
   * a browser flow, a consent) may be declined here but not answered: the
   * daemon takes a person's answer only from a terminal, and the call throws
   * {@link McpxCallError} `person-only`.
   */
  onElicit?: (question: ElicitQuestion) => ElicitAnswer | Promise<ElicitAnswer>;
}

/**
 * Calls one tool through the daemon and returns its unwrapped result
 * ({@link unwrapResult}). One HTTP/1.1 `POST /v1/call` on a fresh unix-socket
 * connection per call (decision 0004, "Fresh connection per call").
 *
 * @param server Server name, for {@link ToolError}.
 * @param namespace Namespace identifier.
 * @param tool The tool's name (real or function spelling).
 * @param args The tool's arguments.
 * @returns The unwrapped result.
 * @throws {ToolError} when the tool answers `isError`.
 * @throws {QuestionError} when the server asked a question the call now waits
 *   on and `options.onElicit` did not answer it.
 * @throws {McpxCallError} when MCPX_SOCKET is unset, no daemon answers, or
 *   the daemon fails the call.
 * @throws the signal's reason when `options.signal` aborts.
 */
export async function callTool(
  server: string,
  namespace: string,
  tool: string,
  args: unknown,
  options: CallOptions = {},
): Promise<unknown> {
  const { timeoutMs, ...rest } = options;
  const result = await daemonRequest("call", `${namespace}.${tool}`, {
    target: `${namespace}.${tool}`,
    arguments: args ?? {},
    // The call's limit is the route's `timeout`, in ms (the engine names it `timeoutMs` for a run).
    ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
    ...(rtConfig.env.trace ? { trace: true } : {}),
  }, { ...rest, isCall: true });
  const answered = await answerQuestions(`${namespace}.${tool}`, result, options);
  return unwrapResult(answered, { server, namespace, tool });
}

/** The question a call's answer is, rather than its result. */
function questionOf(result: unknown): ElicitQuestion | undefined {
  const asked = result as { question?: ElicitQuestion; content?: unknown } | null;
  return asked?.question && asked.content === undefined ? asked.question : undefined;
}

/**
 * Follows a call through its questions with `options.onElicit`: each answer
 * (or decline) goes to the daemon's `questionAnswer` route with `wait`, which
 * answers what the resumed call answers next, until that is a result.
 *
 * @returns The call's result (a CallToolResult).
 * @throws {QuestionError} for a question there is no handler for, or that the
 *   handler left unanswered (`undefined`); {McpxCallError} when the daemon
 *   refuses the answer (`person-only`, a `usage` error naming the field the
 *   schema refuses).
 */
async function answerQuestions(
  what: string,
  result: unknown,
  options: CallOptions,
): Promise<unknown> {
  for (let question = questionOf(result); question; question = questionOf(result)) {
    const answer = options.onElicit ? await options.onElicit(question) : undefined;
    if (answer === undefined) throw new QuestionError(what, question);
    result = await daemonRequest(
      "questionAnswer",
      `the answer to question ${question.id} of ${what}`,
      answer === "decline"
        ? { id: question.id, decline: true, wait: true }
        : { id: question.id, answer, wait: true },
      { ...(options.signal ? { signal: options.signal } : {}), isCall: true },
    );
  }
  return result;
}

/**
 * Sends one request to a daemon route (`call`, `prompts`, `promptGet`,
 * `resources`, `resourceRead`, …) with the caller's context from the run's
 * environment, on a fresh unix-socket connection, and answers the route's
 * result as it came.
 *
 * @param route The route's name (`POST /v1/<route>`).
 * @param what What is asked, for messages (`everything.echo`, `everything prompts/list`).
 * @param fields The route's own fields; the caller's are added.
 * @param options `signal`, `timeoutMs` (sent as the route's `timeoutMs`), and
 *   `isCall` (a lost connection is then worded as a call that may have run).
 * @returns The answer's `result`.
 * @throws {McpxCallError} as {@link callTool} does; the signal's reason when it aborts.
 */
export async function daemonRequest(
  route: string,
  what: string,
  fields: Record<string, unknown>,
  options: CallOptions & { isCall?: boolean } = {},
): Promise<unknown> {
  const env = rtConfig.env;
  if (!env.socket) {
    throw new McpxCallError(
      "no-socket",
      `MCPX_SOCKET is not set, so ${what} cannot reach a daemon: ` +
        "run this script with `mcpx run <script>` (or `mcpx exec`), which starts the daemon " +
        "and tells the client where it listens",
    );
  }
  options.signal?.throwIfAborted();
  const body: Record<string, unknown> = {
    // The caller's context, encoded by the wire's one declaration (wire/caller.ts).
    ...callerBody({
      session: env.session,
      owner: env.owner,
      parentSession: env.parentSession,
      attach: env.attach,
      cwd: env.cwd,
      pid: env.pid,
      gitDir: env.gitDir,
      gitWorkTree: env.gitWorkTree,
      traceIds: env.traceIds,
      run: env.span !== "run-unknown" ? env.span : undefined,
      selection: env.selection,
    }),
    ...fields,
  };
  if (options.timeoutMs !== undefined) body.timeoutMs = options.timeoutMs;
  const request = encodeRequest(route, JSON.stringify(body), rtConfig.version || undefined, {
    endpoint: env.socket,
    token: env.token,
  });

  let response: { status: number; body: string };
  try {
    response = await exchangeRequest(env.socket, request, options.signal);
  } catch (error) {
    if (error instanceof UnsafeSocketDirectory) {
      throw new McpxCallError("unsafe-directory", error.message, { cause: error });
    }
    if (!(error instanceof ExchangeFailure)) throw error; // the signal's reason
    if (error.sent) {
      // It may have run: never sent again (decision 0007).
      throw new McpxCallError(
        "daemon-lost",
        daemonLostMessage({
          what,
          pid: env.daemonPid,
          socket: env.socket,
          reason: error.message,
          isCall: options.isCall === true,
        }),
        { cause: error },
      );
    }
    throw new McpxCallError(
      "daemon-unavailable",
      `no mcpx daemon answers on ${env.socket} (${error.message}), so ${what} ` +
        "was not sent; is the run still alive? `mcpx status` shows the daemon",
      { cause: error },
    );
  }
  const answer = readAnswer(response.body);
  if (!answer) {
    throw new McpxCallError(
      "daemon-protocol",
      `the daemon on ${env.socket} answered ${response.status} with a body that is not an answer`,
    );
  }
  if (answer.trace) runtimeIo.err(traceLine(answer.trace) + "\n");
  if (!answer.ok) {
    const { code, message, ...rest } = answer.error!;
    throw new McpxCallError(code, message || `the daemon failed ${what} without a message`, rest);
  }
  return answer.result;
}
