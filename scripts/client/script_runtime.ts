/**
 * The runtime half of the generated client (`mcpx-client.ts`): calling a tool
 * through the daemon, unwrapping its result, `log`/`emit`, console capture,
 * stack frames as data, `search`/`describe`, and the hooks the launcher uses.
 *
 * The generator copies this file into the client with the modules it imports
 * inlined (their `import` lines removed), so this file:
 *
 * - imports only `../../discovery/search.ts`, `../../discovery/types.ts`,
 *   `../../logs/record.ts`, `./syntax_location.ts`, `./namespace_guard.ts`,
 *   `./namespace_object.ts`, `./content_text.ts`, `./unsettled_await.ts` and
 *   `../../wire/wire.ts` (the daemon protocol, with `../../core/private_dir_rule.ts`; the list is `RUNTIME_INPUTS` in
 *   scripts/client/client_file.ts), without renaming, and defines no top-level name
 *   those modules (or `discovery/stem.ts`, `discovery/words.ts`) define;
 * - runs unchanged under deno, bun and node ≥ 22.6 with type stripping: no
 *   enums, namespaces, parameter properties or decorators (spec 000, "Runtime
 *   portability");
 * - reads its environment (`MCPX_SOCKET`, `MCPX_SESSION`, `MCPX_RUN`, …,
 *   spec 004) through `Deno.env` or `process.env`, whichever exists.
 *
 * Records are one line on stderr each: U+001E, then the JSON of a
 * {@link LogRecord} (decision 0004, "Records and control messages share
 * stderr").
 *
 * @module
 */

import { searchTools } from "../../discovery/search.ts";
import type { ToolEntry } from "../../discovery/types.ts";
import { LEVEL_RANK, renderTemplate, show } from "../../logs/record.ts";
import type { Level, LogRecord } from "../../logs/record.ts";
import { syntaxLocation } from "./syntax_location.ts";
import { NamespaceError, namespaceWithoutTools } from "./namespace_guard.ts";
import { namespaceObject } from "./namespace_object.ts";
import { describeBlock, envelopeText, isBinaryBlock } from "./content_text.ts";

export { NamespaceError, namespaceObject, namespaceWithoutTools };
import {
  daemonLostMessage,
  encodeRequest,
  ExchangeFailure,
  exchangeRequest,
  switchOn,
  traceLine,
  UnsafeSocketDirectory,
} from "../../wire/wire.ts";
import type { WireAnswer, WireErrorBody } from "../../wire/wire.ts";
import {
  awaitingEntry,
  entryUnsettled,
  UNSETTLED_MESSAGE,
  unsettledErrorAttrs,
} from "./unsettled_await.ts";

// ---------------------------------------------------------------------------
// The host runtime

// deno-lint-ignore no-explicit-any
type Loose = any;

const rtDeno: Loose = (globalThis as Loose).Deno;
// Under Deno, merely reading `globalThis.process` loads its Node compatibility
// layer (~10 ms measured), so `process` is used only where Deno is absent.
const rtProcess: Loose = rtDeno ? undefined : (globalThis as Loose).process;
const rtEncoder = new TextEncoder();

function rtEnv(name: string): string | undefined {
  if (rtDeno?.env) {
    try {
      return rtDeno.env.get(name);
    } catch {
      return undefined; // no --allow-env: behave as unset
    }
  }
  return rtProcess?.env?.[name];
}

function rtWriteAll(stream: Loose, text: string): void {
  const bytes = rtEncoder.encode(text);
  for (let written = 0; written < bytes.length;) {
    written += stream.writeSync(bytes.subarray(written));
  }
}

/**
 * Where the client writes: stdout (results, `emit`) and stderr (records).
 * Synchronous where the runtime allows, so records never reorder against the
 * script's own output. Replaceable for tests.
 *
 * @internal
 */
export const runtimeIo: { out(text: string): void; err(text: string): void } = {
  out(text) {
    if (rtDeno?.stdout) rtWriteAll(rtDeno.stdout, text);
    else rtProcess.stdout.write(text);
  },
  err(text) {
    if (rtDeno?.stderr) rtWriteAll(rtDeno.stderr, text);
    else rtProcess.stderr.write(text);
  },
};

/** What the run's environment says, read once (and again by {@link reloadRuntimeEnv}). */
interface RuntimeEnv {
  socket: string | undefined;
  session: string | undefined;
  parentSession: string | undefined;
  cwd: string | undefined;
  pid: number | undefined;
  gitDir: string | undefined;
  gitWorkTree: string | undefined;
  /** `MCPX_TRACE_IDS` as written: the daemon puts each pair on the call's records. */
  traceIds: string | undefined;
  span: string;
  json: boolean;
  /** The daemon's pid as the runner found it, named when a call's connection is lost. */
  daemonPid: number | undefined;
  /** Setting `logging.trace` (`MCPX_TRACE`): each call asks the daemon which instance served it. */
  trace: boolean;
  /**
   * The run's profile selection (settings `profiles.*`, handed on by the
   * runner): the daemon refuses a call outside it. Absent: the default set.
   */
  selection: { profiles: string[]; skipDefault: boolean; all: boolean } | undefined;
}

let rtConfig: RuntimeEnv = readRuntimeEnv();
/** Records below this rank are dropped after one comparison. */
let logMinRank = 1;
/** Records at or above this rank carry their call site. */
let sourceMinRank = 2;
applyLevels();

function readRuntimeEnv(): RuntimeEnv {
  const pid = Number(rtEnv("MCPX_PID"));
  const daemonPid = Number(rtEnv("MCPX_DAEMON_PID"));
  return {
    socket: rtEnv("MCPX_SOCKET") || undefined,
    session: rtEnv("MCPX_SESSION") || undefined,
    parentSession: rtEnv("MCPX_PARENT_SESSION_ID") || undefined,
    cwd: rtEnv("MCPX_CWD") || undefined,
    pid: rtEnv("MCPX_PID") && Number.isInteger(pid) ? pid : undefined,
    gitDir: rtEnv("GIT_DIR") || undefined,
    gitWorkTree: rtEnv("GIT_WORK_TREE") || undefined,
    traceIds: rtEnv("MCPX_TRACE_IDS") || undefined,
    span: rtEnv("MCPX_RUN") || "run-unknown",
    json: rtEnv("MCPX_OUTPUT") === "json",
    daemonPid: rtEnv("MCPX_DAEMON_PID") && Number.isInteger(daemonPid) ? daemonPid : undefined,
    trace: switchOn(rtEnv("MCPX_TRACE") || rtEnv("MCPX_LOGGING_TRACE")),
    selection: readSelection(),
  };
}

/** The settings `profiles.active`, `profiles.skipDefault` and `profiles.all`, when any is set. */
function readSelection(): RuntimeEnv["selection"] {
  const active = rtEnv("MCPX_PROFILES_ACTIVE") ?? "";
  const skipDefault = rtEnv("MCPX_PROFILES_SKIP_DEFAULT") ?? "";
  const all = rtEnv("MCPX_PROFILES_ALL") ?? "";
  if (!active && !skipDefault && !all) return undefined;
  return {
    profiles: [...new Set(active.split(",").map((p) => p.trim()).filter((p) => p !== ""))],
    skipDefault: switchOn(skipDefault),
    all: switchOn(all),
  };
}

function applyLevels(): void {
  const level = (rtEnv("MCPX_LOG_LEVEL") ?? "").toLowerCase() as Level;
  logMinRank = LEVEL_RANK[level] ?? LEVEL_RANK.info;
  const source = (rtEnv("MCPX_LOG_SOURCE") ?? "").toLowerCase();
  if (source === "true" || source === "1" || source === "all") sourceMinRank = 0;
  else if (source === "false" || source === "0" || source === "none") sourceMinRank = Infinity;
  else sourceMinRank = LEVEL_RANK[source as Level] ?? LEVEL_RANK.warn;
}

/**
 * Reads the environment again (socket, session, run id, levels, output
 * mode). The client reads it once on import; tests change it in-process.
 *
 * @internal
 */
export function reloadRuntimeEnv(): void {
  rtConfig = readRuntimeEnv();
  applyLevels();
}

// ---------------------------------------------------------------------------
// Configuration from the generated part

let CLIENT_VERSION = "";
let clientTools: ToolEntry[] = [];
let clientDeclarations: Record<string, string> = {};

/**
 * Called once by the generated part of `mcpx-client.ts`.
 *
 * @param meta.version The mcpx version that generated the client; sent as
 *   `x-mcpx-version` so a daemon of another version refuses the call.
 * @param meta.tools The search index: one entry per tool (`inputSchema` may
 *   hold no more than `required`).
 * @param meta.declarations Each tool's TypeScript declaration, keyed `namespace.fn`.
 */
export function configureClient(
  meta: { version: string; tools: ToolEntry[]; declarations: Record<string, string> },
): void {
  CLIENT_VERSION = meta.version;
  clientTools = meta.tools.map((t) => ({
    ...t,
    description: t.description ?? "",
    tags: t.tags ?? [],
    inputSchema: t.inputSchema ?? {},
  }));
  clientDeclarations = meta.declarations;
}

// ---------------------------------------------------------------------------
// Errors

/** A tool answered with `isError: true`; `message` is the tool's own text. */
export class ToolError extends Error {
  /** Server name as configured (`chrome-devtools`). */
  server: string;
  /** Namespace identifier (`chrome_devtools`). */
  namespace: string;
  /** The tool as it was called. */
  tool: string;
  /** The whole MCP `CallToolResult` envelope. */
  raw: unknown;

  constructor(
    server: string,
    namespace: string,
    tool: string,
    raw: unknown,
    message: string,
  ) {
    super(message);
    this.name = "ToolError";
    this.server = server;
    this.namespace = namespace;
    this.tool = tool;
    this.raw = raw;
  }
}

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

  constructor(code: string, message: string, options?: { cause?: unknown; stderrTail?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "McpxCallError";
    this.code = code;
    if (options?.stderrTail) this.stderrTail = options.stderrTail;
  }
}

// ---------------------------------------------------------------------------
// Calling a tool

/** Options of {@link callTool}. */
export interface CallOptions {
  /** Aborting closes the connection and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The daemon gives up on the call after this long (ms). */
  timeoutMs?: number;
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
  const env = rtConfig;
  if (!env.socket) {
    throw new McpxCallError(
      "no-socket",
      `MCPX_SOCKET is not set, so ${namespace}.${tool} cannot reach a daemon: ` +
        "run this script with `mcpx run <script>` (or `mcpx exec`), which starts the daemon " +
        "and tells the client where it listens",
    );
  }
  options.signal?.throwIfAborted();
  const body: Record<string, unknown> = { namespace, tool, arguments: args ?? {} };
  if (options.timeoutMs !== undefined) body.timeoutMs = options.timeoutMs;
  if (env.session) body.session = env.session;
  if (env.parentSession) body.parentSession = env.parentSession;
  if (env.cwd) body.cwd = env.cwd;
  if (env.pid !== undefined) body.pid = env.pid;
  if (env.gitDir) body.gitDir = env.gitDir;
  if (env.gitWorkTree) body.gitWorkTree = env.gitWorkTree;
  if (env.traceIds) body.traceIds = env.traceIds;
  if (env.span !== "run-unknown") body.run = env.span;
  if (env.trace) body.trace = true;
  if (env.selection) body.selection = env.selection;
  const request = encodeRequest("call", JSON.stringify(body), CLIENT_VERSION || undefined);

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
          what: `${namespace}.${tool}`,
          pid: env.daemonPid,
          socket: env.socket,
          reason: error.message,
          isCall: true,
        }),
        { cause: error },
      );
    }
    throw new McpxCallError(
      "daemon-unavailable",
      `no mcpx daemon answers on ${env.socket} (${error.message}), so ${namespace}.${tool} ` +
        "was not sent; is the run still alive? `mcpx status` shows the daemon",
      { cause: error },
    );
  }
  let answer: WireAnswer;
  try {
    answer = JSON.parse(response.body);
  } catch (error) {
    throw new McpxCallError(
      "daemon-protocol",
      `the daemon on ${env.socket} answered ${response.status} with a body that is not JSON`,
      { cause: error },
    );
  }
  if (answer.trace) runtimeIo.err(traceLine(answer.trace) + "\n");
  if (!answer.ok) {
    const wire: Partial<WireErrorBody> = answer.error ?? {};
    throw new McpxCallError(
      String(wire.code ?? "internal"),
      String(wire.message ?? `the daemon failed ${namespace}.${tool} without a message`),
      { stderrTail: wire.stderrTail },
    );
  }
  return unwrapResult(answer.result, { server, namespace, tool });
}

function attachRaw<T extends object>(value: T, raw: unknown): T {
  try {
    Object.defineProperty(value, "raw", {
      value: raw,
      enumerable: false,
      writable: true,
      configurable: true,
    });
  } catch { /* frozen: the value is still right, only .raw is missing */ }
  return value;
}

/**
 * Turns a `CallToolResult` into what a script wants (decision 0004, "Text
 * results are String objects carrying .raw"):
 *
 * | result | returns |
 * | --- | --- |
 * | `isError: true` | throws {@link ToolError} |
 * | `structuredContent` | that object, non-enumerable `.raw` |
 * | text parsing as a JSON object/array | the parsed value, non-enumerable `.raw` |
 * | text parsing as a number, boolean or null | the primitive (no `.raw`) |
 * | other text | a `String` object with non-enumerable `.raw` |
 * | anything else (images, …) | the envelope, whose `.raw` is itself |
 *
 * Several text blocks are joined with `\n` first.
 *
 * @param raw The envelope.
 * @param where Names for the {@link ToolError} (server, namespace, tool).
 * @returns The unwrapped value.
 * @throws {ToolError} when the result is an error.
 * @example
 * ```ts
 * import { unwrapResult, rawOf } from "./script_runtime.ts";
 * const envelope = { content: [{ type: "text", text: '{"n":1}' }] };
 * const value = unwrapResult(envelope) as { n: number };
 * if (value.n !== 1 || rawOf(value) !== envelope) throw new Error();
 * ```
 */
export function unwrapResult(
  raw: unknown,
  where: { server?: string; namespace?: string; tool?: string } = {},
): unknown {
  const envelope = (raw ?? {}) as {
    isError?: boolean;
    structuredContent?: unknown;
    content?: { type?: string; text?: string }[];
  };
  const content = Array.isArray(envelope.content) ? envelope.content : [];
  const allText = content.length > 0 && content.every((b) => b?.type === "text");
  if (envelope.isError) {
    const text = content.filter((b) => b?.type === "text").map((b) => b.text ?? "").join("\n");
    throw new ToolError(
      where.server ?? "",
      where.namespace ?? "",
      where.tool ?? "",
      raw,
      text || `${where.namespace ?? "?"}.${where.tool ?? "?"} reported an error without a message`,
    );
  }
  const structured = envelope.structuredContent;
  if (structured !== undefined && structured !== null) {
    return typeof structured === "object" ? attachRaw(structured, raw) : structured;
  }
  if (allText) {
    const text = content.map((b) => b.text ?? "").join("\n");
    const parsed = parseJsonText(text);
    if (parsed !== NOT_JSON) {
      if (typeof parsed === "object" && parsed !== null) return attachRaw(parsed, raw);
      if (typeof parsed === "string") return attachRaw(new String(parsed), raw);
      return parsed;
    }
    return attachRaw(new String(text), raw);
  }
  if (typeof raw === "object" && raw !== null) return attachRaw(raw, raw);
  return raw;
}

const NOT_JSON = Symbol("not JSON");

/** JSON.parse when the text could be JSON at all (no exception for prose). */
function parseJsonText(text: string): unknown {
  const first = text.trimStart()[0];
  if (first === undefined || !'{["-0123456789tfn'.includes(first)) return NOT_JSON;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/**
 * The MCP envelope an unwrapped result came from.
 *
 * @param value A value returned by a tool call.
 * @returns Its `.raw`, or undefined for primitives (numbers, booleans, null)
 *   and values that did not come from a call.
 */
export function rawOf(value: unknown): unknown {
  if ((typeof value === "object" && value !== null) || typeof value === "function") {
    return (value as { raw?: unknown }).raw;
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Stack frames

/** One stack frame as data (spec 000, "Structured stack traces"). */
export interface StackFrame {
  /** `fn`, `Type.method`, `new Type`, or null for top-level code. */
  function: string | null;
  /** The script's URL or path; null when V8 has none (eval, native). */
  file: string | null;
  /** 1-based. */
  line: number | null;
  /** 1-based. */
  column: number | null;
  /** The frame is an `await` continuation. */
  async: boolean;
  /** The frame is native (built-in) code. */
  native: boolean;
}

function frameOfSite(site: Loose): StackFrame {
  let fn: string | null = site.getFunctionName?.() ?? null;
  if (site.isConstructor?.()) fn = `new ${fn ?? "<anonymous>"}`;
  else if (site.isToplevel?.() === false) {
    const type = site.getTypeName?.();
    const method = site.getMethodName?.();
    if (fn && type && !fn.startsWith(`${type}.`)) fn = `${type}.${fn}`;
    else if (!fn && method) fn = `${type ?? "<anonymous>"}.${method}`;
  }
  return {
    function: fn,
    file: site.getScriptNameOrSourceURL?.() || site.getFileName?.() || null,
    line: site.getLineNumber?.() ?? null,
    column: site.getColumnNumber?.() ?? null,
    async: site.isAsync?.() ?? false,
    native: site.isNative?.() ?? false,
  };
}

function prepareFrames(_error: unknown, sites: Loose[]): StackFrame[] {
  return sites.map(frameOfSite);
}

function siteFile(site: Loose): string | null {
  return site.getScriptNameOrSourceURL?.() || site.getFileName?.() || null;
}

/** Only the first call site outside this file, as a frame: the cheap path for `attrs.source`. */
function prepareCallSite(_error: unknown, sites: Loose[]): StackFrame[] {
  for (const site of sites) {
    if (siteFile(site) !== rtOwnFile) return [frameOfSite(site)];
  }
  return [];
}

/** Runs `read` with `prepare` installed, then restores what was there. */
function withFramePreparer<T>(
  limit: number | undefined,
  read: () => T,
  prepare: (error: unknown, sites: Loose[]) => StackFrame[] = prepareFrames,
): T {
  const E = Error as Loose;
  const hadOwn = Object.hasOwn(Error, "prepareStackTrace");
  const previous = E.prepareStackTrace;
  const previousLimit = E.stackTraceLimit;
  E.prepareStackTrace = prepare;
  if (limit !== undefined) E.stackTraceLimit = limit;
  try {
    return read();
  } finally {
    if (hadOwn) E.prepareStackTrace = previous;
    else delete E.prepareStackTrace;
    if (limit !== undefined) E.stackTraceLimit = previousLimit;
  }
}

function framesAbove(
  above: Loose,
  limit: number,
  prepare?: (error: unknown, sites: Loose[]) => StackFrame[],
): StackFrame[] {
  return withFramePreparer(limit, () => {
    const holder: { stack?: unknown } = {};
    const E = Error as Loose;
    if (typeof E.captureStackTrace === "function") E.captureStackTrace(holder, above);
    else holder.stack = new Error().stack;
    const frames = holder.stack; // V8 formats lazily: read while ours is installed
    return Array.isArray(frames) ? frames : parseStackText(String(frames ?? ""));
  }, prepare);
}

/**
 * The caller's stack as data.
 *
 * @param skip Frames to drop from the top, after the caller's own (0 = the caller).
 * @param limit Most frames returned (default 50).
 * @returns Frames, innermost first.
 * @example
 * ```ts
 * import { captureFrames } from "./script_runtime.ts";
 * function here() { return captureFrames()[0]; }
 * if (here().function !== "here") throw new Error();
 * ```
 */
export function captureFrames(skip = 0, limit = 50): StackFrame[] {
  return framesAbove(captureFrames, skip + limit).slice(skip, skip + limit);
}

const rtFrameCache = new WeakMap<object, StackFrame[]>();

/**
 * An error's stack as data. Its `.stack` string stays (V8 keeps whichever
 * form is read first, so the string is rendered from the frames here).
 *
 * @param err Anything thrown.
 * @returns Frames, innermost first; [] for a non-object. When the string form
 *   was already made (read before, or by a runtime that formats eagerly),
 *   the frames are parsed from it.
 */
export function errorFrames(err: unknown): StackFrame[] {
  if (typeof err !== "object" || err === null) return [];
  const cached = rtFrameCache.get(err);
  if (cached) return cached;
  let frames: StackFrame[] = [];
  try {
    const stack = withFramePreparer(undefined, () => (err as { stack?: unknown }).stack);
    if (Array.isArray(stack)) {
      frames = stack;
      Object.defineProperty(err, "stack", {
        value: renderStack(err, frames),
        writable: true,
        configurable: true,
        enumerable: false,
      });
    } else if (typeof stack === "string") {
      frames = parseStackText(stack);
    }
  } catch { /* a hostile getter: no frames */ }
  rtFrameCache.set(err, frames);
  return frames;
}

function errorHeadline(err: unknown): string {
  try {
    return String(err);
  } catch {
    return "Error";
  }
}

function renderFrame(frame: StackFrame): string {
  const where = frame.native
    ? "native"
    : `${frame.file ?? "<anonymous>"}:${frame.line ?? 0}:${frame.column ?? 0}`;
  return `    at ${frame.async ? "async " : ""}${
    frame.function ? `${frame.function} (${where})` : where
  }`;
}

function renderStack(err: unknown, frames: StackFrame[]): string {
  return [errorHeadline(err), ...frames.map(renderFrame)].join("\n");
}

const STACK_LINE = /^\s*at (async )?(?:(.*?) \((.*)\)|(.*))$/;

/** Frames from a V8/JSC `.stack` string (loses nothing V8 prints, but less than the call sites hold). */
function parseStackText(text: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of text.split("\n")) {
    const m = STACK_LINE.exec(line);
    if (!m) continue;
    const where = m[3] ?? m[4] ?? "";
    const pos = /^(.*):(\d+):(\d+)$/.exec(where);
    frames.push({
      function: m[2] ?? null,
      file: pos ? pos[1] : where === "native" ? null : where || null,
      line: pos ? Number(pos[2]) : null,
      column: pos ? Number(pos[3]) : null,
      async: m[1] !== undefined,
      native: where === "native",
    });
  }
  return frames;
}

/** The file this code lives in, as frames name it (the client, once bundled). */
let rtOwnFile: string | null | undefined;

/** The stack from the first frame outside this file: where the script called in. */
function callerFrames(limit = 50): StackFrame[] {
  rtOwnFile ??= framesAbove(callerFrames, 1)[0]?.file ?? null;
  const frames = framesAbove(callerFrames, limit + 10);
  const first = frames.findIndex((f) => f.file !== rtOwnFile);
  return first < 0 ? [] : frames.slice(first, first + limit);
}

/** The first frame outside this file (~10 µs: V8 builds the call sites either way). */
function callSite(): StackFrame | undefined {
  rtOwnFile ??= framesAbove(callSite, 1)[0]?.file ?? null;
  const [frame] = framesAbove(callSite, 12, prepareCallSite);
  return frame && frame.file !== rtOwnFile ? frame : undefined;
}

// ---------------------------------------------------------------------------
// Records

const rtIdPrefix = (() => {
  let hex = "";
  for (const b of crypto.getRandomValues(new Uint8Array(6))) hex += b.toString(16).padStart(2, "0");
  return hex;
})();
let rtIdCounter = 0;

/** Error as data: name, message, stack, frames (plus a ToolError's names, a cause, a code). */
function errorData(err: Error): Record<string, unknown> {
  const frames = errorFrames(err);
  const data: Record<string, unknown> = {
    name: err.name,
    message: err.message,
    stack: typeof err.stack === "string" ? err.stack : renderStack(err, frames),
    frames,
  };
  if (err instanceof ToolError) {
    data.server = err.server;
    data.namespace = err.namespace;
    data.tool = err.tool;
  }
  const code = (err as { code?: unknown }).code;
  if (code !== undefined) data.code = code;
  if (err.cause !== undefined) data.cause = err.cause;
  const location = syntaxLocation(err);
  if (location) {
    data.location = location;
    if (err.name === "BuildMessage") data.name = "SyntaxError"; // bun's name for it
  }
  return data;
}

function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Error) return errorData(value);
  if (value instanceof Map) return [...value];
  if (value instanceof Set) return [...value];
  if (typeof value === "symbol") return value.toString();
  if (typeof value === "function") return `[Function ${value.name || "(anonymous)"}]`;
  return value;
}

/** How printed output ends the description of binary content it leaves out. */
const PRINTED_DATA_HINT = "not printed; the value in the script holds the data (`.raw`)";

/**
 * JSON for a value that reaches stdout (the entry's result, an `emit`), with
 * binary content blocks described, never their base64 (AGENTS.md, "Reading
 * results"); the script's own value keeps the data.
 */
function printedJson(value: unknown, indent?: number): string {
  return rtStringify(
    value,
    indent,
    (v) => isBinaryBlock(v) ? describeBlock(v, PRINTED_DATA_HINT) : v,
  );
}

/** JSON for a record or an emitted value: BigInt as text, Errors as data, cycles cut. */
function rtStringify(
  value: unknown,
  indent?: number,
  describe: (value: unknown) => unknown = (v) => v,
): string {
  const replacer = (key: string, v: unknown) => describe(jsonReplacer(key, v));
  try {
    return JSON.stringify(value, replacer, indent) ?? "null";
  } catch {
    const seen = new WeakSet<object>();
    return JSON.stringify(value, (key, v) => {
      const out = replacer(key, v);
      if (typeof out === "object" && out !== null) {
        if (seen.has(out)) return "[Circular]";
        seen.add(out);
      }
      return out;
    }, indent) ?? "null";
  }
}

function writeRecord(
  level: Level,
  event: string,
  msg: string,
  template: string,
  attrs: Record<string, unknown>,
): void {
  const record: LogRecord = {
    time: new Date().toISOString(),
    level,
    event,
    msg,
    template,
    id: rtIdPrefix + (rtIdCounter++).toString(16).padStart(8, "0"),
    span: rtConfig.span,
    attrs,
  };
  runtimeIo.err("\u001e" + rtStringify(record) + "\n");
}

// ---------------------------------------------------------------------------
// log

/** One logging method: `(message, attrs?, ...args)`. */
export type LogMethod = (message: unknown, ...rest: unknown[]) => void;

/** The script's logger (spec 000, "The script contract"). */
export interface Logger extends LogMethod {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  /** A logger whose records also carry `attrs`. */
  with(attrs: Record<string, unknown>): Logger;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function logRecord(
  level: Level,
  message: unknown,
  rest: unknown[],
  bound: Record<string, unknown>,
): void {
  let args = rest;
  let attrs: Record<string, unknown> = bound;
  if (isPlainObject(rest[0])) {
    attrs = { ...bound, ...rest[0] };
    args = rest.slice(1);
  } else {
    attrs = { ...bound };
  }
  let template: string;
  if (typeof message === "string") template = message;
  else if (message instanceof Error) {
    template = errorHeadline(message);
    attrs.error = message;
  } else template = show(message);
  const msg = renderTemplate(template, attrs);
  if (args.length > 0) attrs.args = args;
  if (LEVEL_RANK[level] >= sourceMinRank) {
    const site = callSite();
    if (site) attrs.source = site;
  }
  writeRecord(level, "log", msg, template, attrs);
}

function makeLogger(bound: Record<string, unknown>): Logger {
  const method = (level: Level): LogMethod => {
    const rank = LEVEL_RANK[level];
    // `arguments` rather than a rest parameter: a filtered call allocates nothing.
    return function (message: unknown) {
      if (rank < logMinRank) return;
      const rest: unknown[] = [];
      for (let i = 1; i < arguments.length; i++) rest.push(arguments[i]);
      logRecord(level, message, rest, bound);
    } as LogMethod;
  };
  const info = method("info");
  const logger = function log(message: unknown) {
    if (LEVEL_RANK.info < logMinRank) return;
    const rest: unknown[] = [];
    for (let i = 1; i < arguments.length; i++) rest.push(arguments[i]);
    logRecord("info", message, rest, bound);
  } as Logger;
  logger.debug = method("debug");
  logger.info = info;
  logger.warn = method("warn");
  logger.error = method("error");
  logger.with = (attrs) => makeLogger({ ...bound, ...attrs });
  return logger;
}

/**
 * Structured logging: `log(msg)` is `log.info(msg)`. A message may hold
 * `{placeholders}` filled from the attributes (`{{x}}` is a literal `{x}`);
 * the first argument after it is attributes when it is a plain object, and
 * everything else goes to `attrs.args` (Errors as name, message, stack and
 * frames). Calls below MCPX_LOG_LEVEL cost one comparison; calls at or above
 * MCPX_LOG_SOURCE (default warn) record their call site in `attrs.source`.
 *
 * @example
 * ```ts ignore
 * log.info("fetched {count} pages", { count: 3, url });
 * const scoped = log.with({ phase: "scan" });
 * ```
 */
export const log: Logger = makeLogger({});

// ---------------------------------------------------------------------------
// emit, search, describe

/**
 * Streams one value out now: a JSON line on stdout, or under `--json`
 * (MCPX_OUTPUT=json) a `run.emit` record the CLI collects into `results`.
 *
 * @param value Any JSON-able value (BigInt as text, Errors as data).
 */
export function emit(value: unknown): void {
  if (rtConfig.json) writeRecord("info", "run.emit", "emit", "emit", { value });
  else runtimeIo.out(printedJson(value) + "\n");
}

/** One hit of {@link search}. */
export interface ScriptSearchHit {
  namespace: string;
  /** The function identifier, as called in a script (`take_screenshot`). */
  tool: string;
  /** The tool's real MCP name (`take-screenshot`). */
  name: string;
  description: string;
  /** Names of the required arguments. */
  required: string[];
  score: number;
}

/**
 * Finds tools in the client's index, ranked exactly as `mcpx search` ranks
 * them (spec 000, "Finding a tool without leaving the script").
 *
 * @param words Query words, split on whitespace.
 * @param options.limit Most hits (default 20).
 * @returns Hits, best first.
 * @throws {RangeError} when `limit` is negative.
 */
export function search(words: string, options: { limit?: number } = {}): ScriptSearchHit[] {
  return searchTools(clientTools, words, { limit: options.limit }).hits.map(({ entry, score }) => {
    const required = (entry.inputSchema as { required?: unknown }).required;
    return {
      namespace: entry.namespace,
      tool: entry.fn,
      name: entry.tool,
      description: entry.description,
      required: Array.isArray(required) ? required.map(String) : [],
      score,
    };
  });
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        row[j] + 1,
        next[j - 1] + 1,
        row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length];
}

/**
 * One tool's TypeScript declaration, or a whole namespace's.
 *
 * @param ref `namespace.fn`, `namespace.realName`, or `namespace`.
 * @returns The declaration text.
 * @throws {Error} naming the nearest known names when `ref` is unknown.
 */
export function describe(ref: string): string {
  // Keys are `namespace.fn`: `describe("constructor")` must not find Object's.
  const declared = (key: string) =>
    Object.hasOwn(clientDeclarations, key) ? clientDeclarations[key] : undefined;
  const direct = declared(ref);
  if (direct !== undefined) return direct;
  const dot = ref.indexOf(".");
  if (dot > 0) {
    const ns = ref.slice(0, dot);
    const name = ref.slice(dot + 1);
    const entry = clientTools.find((t) => t.namespace === ns && t.tool === name);
    const byReal = entry && declared(`${ns}.${entry.fn}`);
    if (byReal !== undefined) return byReal;
  } else {
    const inNamespace = Object.keys(clientDeclarations).filter((k) => k.startsWith(`${ref}.`));
    if (inNamespace.length > 0) return inNamespace.map((k) => clientDeclarations[k]).join("\n\n");
  }
  const known = Object.keys(clientDeclarations);
  const nearest = known
    .map((k) => ({ k, d: editDistance(ref.toLowerCase(), k.toLowerCase()) }))
    .sort((x, y) => x.d - y.d || (x.k < y.k ? -1 : 1))
    .slice(0, 3)
    .map((x) => x.k);
  throw new Error(
    `describe: no tool "${ref}" in this client` +
      (nearest.length ? `; nearest: ${nearest.join(", ")}` : "; it knows no tools") +
      ". `mcpx search <words>` finds tools; regenerate the client if a server changed",
  );
}

// ---------------------------------------------------------------------------
// Console capture

type ConsoleFn = (...args: unknown[]) => unknown;

let rtShadowText: string[] | null = null;

/**
 * A console of the runtime's own making whose output is collected rather
 * than printed, so a record's message is exactly what the real console would
 * have printed (format specifiers, inspect, group indentation, counters).
 */
function makeShadowConsole(): Record<string, ConsoleFn> | null {
  const collect = (text: unknown) => {
    rtShadowText?.push(String(text));
    return true;
  };
  try {
    const internal = rtDeno && rtDeno.internal !== undefined ? rtDeno[rtDeno.internal] : undefined;
    if (typeof internal?.Console === "function") return new internal.Console(collect);
  } catch { /* fall through to node:console */ }
  try {
    const nodeConsole = rtProcess?.getBuiltinModule?.("node:console");
    const nodeStream = rtProcess?.getBuiltinModule?.("node:stream");
    if (typeof nodeConsole?.Console === "function" && nodeStream?.Writable) {
      // A real Writable: node's Console drops writes to anything less, silently.
      // Its write callback runs synchronously, so text arrives before the call returns.
      const sink = new nodeStream.Writable({
        decodeStrings: false,
        write(chunk: unknown, _encoding: string, done: () => void) {
          collect(chunk);
          done();
        },
      });
      return new nodeConsole.Console({ stdout: sink, stderr: sink, colorMode: false });
    }
  } catch { /* no shadow: plain formatting */ }
  return null;
}

/** How each console member is treated. */
const CONSOLE_LEVELS: Record<string, Level> = {
  debug: "debug",
  info: "info",
  warn: "warn",
  error: "error",
};
/** Members that print to stdout: left as they are, and also recorded file-only. */
const CONSOLE_STDOUT = [
  "log",
  "dir",
  "dirxml",
  "table",
  "count",
  "countReset",
  "time",
  "timeLog",
  "timeEnd",
  "group",
  "groupCollapsed",
  "groupEnd",
];
/** Devtools markers: no output anywhere, so a file-only record keeps them. */
const CONSOLE_MARKERS = ["profile", "profileEnd", "timeStamp", "clear"];

let rtConsoleCaptured = false;

// ANSI SGR sequences, which Deno's console adds when its stream is a terminal.
// deno-lint-ignore no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;

function nameFunction<T extends ConsoleFn>(fn: T, name: string): T {
  Object.defineProperty(fn, "name", { value: name, configurable: true });
  return fn;
}

function captureConsoleMembers(): void {
  if (rtConsoleCaptured) return;
  rtConsoleCaptured = true;
  const target = globalThis.console as unknown as Record<string, ConsoleFn>;
  const original: Record<string, ConsoleFn> = {};
  // Only the members wrapped here are read: bun's console has lazy members
  // (`Console`) whose first read loads node:console.
  const wrapped = [
    ...Object.keys(CONSOLE_LEVELS),
    "assert",
    "trace",
    ...CONSOLE_STDOUT,
    ...CONSOLE_MARKERS,
  ];
  for (const key of wrapped) {
    if (typeof target[key] === "function") original[key] = target[key].bind(target);
  }
  // Made on first use: loading node:console and node:stream costs bun ~12 ms
  // (measured), which a script that never touches the console should not pay.
  let shadow: Record<string, ConsoleFn> | null | undefined;
  const format = (method: string, args: unknown[]): string => {
    if (shadow === undefined) shadow = makeShadowConsole();
    if (!shadow || typeof shadow[method] !== "function") {
      return args.map((a) => (typeof a === "string" ? a : show(a))).join(" ");
    }
    rtShadowText = [];
    try {
      shadow[method](...args);
      const text = rtShadowText.join("");
      const plain = text.includes("\u001b[") ? text.replace(SGR, "") : text;
      return plain.endsWith("\n") ? plain.slice(0, -1) : plain;
    } finally {
      rtShadowText = null;
    }
  };
  const record = (level: Level, msg: string, args: unknown[], extra?: Record<string, unknown>) => {
    // A format string is the template; otherwise the message is its own.
    const first = args[0];
    const formatted = typeof first === "string" && (args.length === 1 || first.includes("%"));
    const template = formatted ? first : msg;
    const values = formatted ? args.slice(1) : args;
    const attrs: Record<string, unknown> = { ...extra };
    if (values.length > 1 || (values.length === 1 && typeof values[0] !== "string")) {
      attrs.args = values;
    }
    if (LEVEL_RANK[level] >= sourceMinRank) {
      const site = callSite();
      if (site) attrs.source = site;
    }
    writeRecord(level, "log", msg, template, attrs);
  };
  // Native members call each other (group calls log, table calls log): only
  // the outermost call is recorded, nested ones go straight to the original.
  let depth = 0;
  const wrap = (method: string, body: (args: unknown[]) => void) => {
    const native = original[method];
    if (!native) return;
    target[method] = nameFunction((...args: unknown[]) => {
      if (depth > 0) return native(...args);
      depth++;
      try {
        body(args);
      } finally {
        depth--;
      }
    }, method);
  };

  for (const [method, level] of Object.entries(CONSOLE_LEVELS)) {
    const rank = LEVEL_RANK[level];
    wrap(method, (args) => {
      if (rank < logMinRank) return;
      record(level, format(method, args), args);
    });
  }
  wrap("assert", (args) => {
    if (args[0] || LEVEL_RANK.error < logMinRank) return;
    record("error", format("assert", args), args.slice(1));
  });
  wrap("trace", (args) => {
    if (LEVEL_RANK.info < logMinRank) return;
    const frames = callerFrames();
    const text = ["Trace: " + format("log", args), ...frames.map(renderFrame)].join("\n");
    record("info", text, args, { frames });
  });
  for (const method of CONSOLE_STDOUT) {
    const native = original[method];
    wrap(method, (args) => {
      native(...args);
      // Only counters, timers and groups keep state the shadow must follow.
      const stateless = method === "log" || method === "dir" || method === "dirxml" ||
        method === "table";
      if (stateless && LEVEL_RANK.info < logMinRank) return;
      const text = format(method, args);
      if (text !== "" && LEVEL_RANK.info >= logMinRank) {
        record("info", text, args, { fileOnly: true });
      }
    });
  }
  for (const method of CONSOLE_MARKERS) {
    const native = original[method];
    wrap(method, (args) => {
      native(...args);
      if (method === "clear") format("clear", []); // resets the shadow's group indentation
      if (LEVEL_RANK.info < logMinRank) return;
      const label = args.length ? ` ${args.map((a) => String(a)).join(" ")}` : "";
      record("info", `console.${method}${label}`, [], { fileOnly: true });
    });
  }
}

// ---------------------------------------------------------------------------
// The launcher's hooks

/**
 * A SyntaxError from node compiling a module (every frame node's own) that
 * carries no place: node keeps the place hidden and prints it only for an
 * uncaught error.
 */
function nodeUnplacedSyntaxError(error: unknown, data: Record<string, unknown>): boolean {
  if (rtDeno || (globalThis as Loose).Bun || !(error instanceof SyntaxError)) return false;
  if (data.location) return false;
  const frames = (data.frames ?? []) as StackFrame[];
  return frames.every((f) => f.file?.startsWith("node:"));
}

function setExitCode(code: number): void {
  if (rtDeno && "exitCode" in rtDeno) rtDeno.exitCode = code;
  else if (rtProcess) rtProcess.exitCode = code;
}

/**
 * Under node and bun: once nothing is left to run while the launcher still
 * awaits the script, report it in mcpx's words and end with 1, before node
 * prints its own warning (scripts/client/unsettled_await.ts). Deno has no such hook;
 * mcpx reports it from Deno's own report (scripts/runner/runtime_report.ts).
 */
function hookUnsettled(): void {
  if (rtDeno || typeof rtProcess?.on !== "function") return;
  rtProcess.on("beforeExit", () => {
    if (!entryUnsettled()) return;
    writeRecord("error", "run.error", UNSETTLED_MESSAGE, UNSETTLED_MESSAGE, unsettledErrorAttrs());
    rtProcess.exit(1);
  });
}

/**
 * What the generated launcher calls around a script (decision 0004, "The
 * pieces"; spec 000, "The script contract").
 */
export const launcher: {
  awaiting<T>(promise: Promise<T>): Promise<T>;
  installGlobals(tools: Record<string, unknown>): void;
  captureConsole(): void;
  runEntry(
    mod: Record<string, unknown>,
    script: { path: string; name: string; args: string[]; export?: string },
  ): Promise<unknown>;
  printResult(value: unknown): void;
  reportError(error: unknown): void;
} = {
  /**
   * Marks what the launcher awaits (the script's import, its entry), so a
   * top-level await that can never settle is reported as such.
   *
   * @returns `promise`.
   */
  awaiting(promise) {
    return awaitingEntry(promise, hookUnsettled);
  },

  /**
   * Puts `tools`, each namespace (unless a global of that name exists),
   * `log`, `emit`, `search`, `describe`, `ToolError`, `NamespaceError`,
   * `captureFrames` and `errorFrames` on globalThis.
   */
  installGlobals(tools) {
    const g = globalThis as Record<string, unknown>;
    g.tools = tools;
    for (const [namespace, value] of Object.entries(tools)) {
      if (!(namespace in g)) g[namespace] = value;
    }
    Object.assign(g, {
      log,
      emit,
      search,
      describe,
      ToolError,
      NamespaceError,
      captureFrames,
      errorFrames,
    });
  },

  /** Turns console members into records (spec 000, "What the console does and does not capture"). */
  captureConsole() {
    captureConsoleMembers();
  },

  /**
   * Calls the script's entry: the named export with `script.args` spread, or
   * a default-exported function with `script.args` as one array, or nothing
   * (top-level code already ran on import).
   *
   * @throws {Error} listing the exported functions when `script.export` names none.
   */
  async runEntry(mod, script) {
    if (script.export !== undefined) {
      const entry = mod[script.export];
      if (typeof entry !== "function") {
        const names = Object.keys(mod).filter((k) => typeof mod[k] === "function");
        throw new Error(
          `${script.path} has no exported function "${script.export}"; ` +
            (names.length ? `it exports: ${names.join(", ")}` : "it exports no functions"),
        );
      }
      return await entry(...script.args);
    }
    if (typeof mod.default === "function") return await mod.default(script.args);
    return undefined;
  },

  /**
   * Prints the entry's return value: nothing for undefined; text as text
   * (a newline added unless it ends with one); a tool's envelope as `mcpx
   * call` prints it; anything else as indented JSON, binary content blocks
   * described rather than printed. Under `--json` it is a
   * `run.result` record instead, data included, as `mcpx --json call` gives it.
   */
  printResult(value) {
    if (value === undefined) return;
    if (rtConfig.json) {
      writeRecord("info", "run.result", "result", "result", { value });
      return;
    }
    if (typeof value === "string" || value instanceof String) {
      const text = String(value);
      runtimeIo.out(text.endsWith("\n") ? text : text + "\n");
      return;
    }
    // A tool's whole envelope (neither text nor structured) prints as `mcpx call` prints it.
    const text = envelopeText(value, PRINTED_DATA_HINT) ?? printedJson(value, 2);
    runtimeIo.out(text + "\n");
  },

  /**
   * Records a thrown value as a `run.error` record and sets the exit code to 1.
   * A module node could not compile, which it tells the place of only when the
   * error is uncaught, is thrown again uncaught for node to print (the record
   * then goes to the durable log only).
   */
  reportError(error) {
    const data: Record<string, unknown> = error instanceof Error
      ? errorData(error)
      : { name: "Error", message: show(error), frames: [], value: error };
    const msg = `${data.name}: ${data.message}`;
    const unplaced = nodeUnplacedSyntaxError(error, data);
    writeRecord("error", "run.error", msg, msg, {
      error: data,
      ...(unplaced ? { fileOnly: true } : {}),
    });
    setExitCode(1);
    if (unplaced) {
      // Node prints the place it keeps hidden, then the headline (its own frames add nothing).
      Object.defineProperty(error, "stack", { value: msg, writable: true, configurable: true });
      setTimeout(() => {
        throw error;
      });
    }
  },
};
