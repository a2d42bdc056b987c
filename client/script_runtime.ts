/**
 * The runtime half of the generated client (`mcpx-client.ts`), and its entry:
 * this module reads the run's environment, takes the generated part's
 * configuration, and exports the client's API, which its modules implement:
 *
 * | module | what |
 * | --- | --- |
 * | `./host_runtime.ts` | deno, bun or node: globals, environment, stdout/stderr |
 * | `./client_config.ts` | the configuration every module reads |
 * | `./daemon_call.ts` | `callTool`: one `POST /v1/call` through wire/wire.ts |
 * | `./tool_result.ts` | `unwrapResult`, `rawOf`, `ToolError` |
 * | `./stack_frames.ts` | `captureFrames`, `errorFrames`, call sites |
 * | `./client_output.ts` | records on stderr, JSON on stdout, `emit` |
 * | `./logger.ts` | `log` |
 * | `./tool_index.ts` | `search`, `describe` |
 * | `./console_capture.ts` | console members as records |
 * | `./launcher_hooks.ts` | `launcher`, what the generated launcher calls |
 * | `./content_api.ts` | `contentApis`: a namespace's `$prompts` and `$resources` |
 *
 * The generator copies this file into the client with the modules it imports
 * inlined (their `import` lines removed; client/bundle.ts), so the
 * runtime's modules:
 *
 * - import only each other, `../discovery/search.ts`, `../discovery/types.ts`,
 *   `../logs/record.ts`, `./syntax_location.ts`, `./namespace_guard.ts`,
 *   `./namespace_object.ts`, `../core/nearest.ts`, `./content_text.ts`, `./content_api.ts`, `./unsettled_await.ts` and
 *   `../wire/wire.ts` (the daemon protocol, with `../core/private_dir_rule.ts`;
 *   the list is `RUNTIME_INPUTS` in client/client_file.ts), without
 *   renaming, and define no top-level name another of them (or
 *   `discovery/stem.ts`, `discovery/words.ts`) defines;
 * - run unchanged under deno, bun and node ≥ 22.6 with type stripping: no
 *   enums, namespaces, parameter properties or decorators (spec 000, "Runtime
 *   portability");
 * - read the environment (`MCPX_SOCKET`, `MCPX_SESSION`, `MCPX_RUN`, …,
 *   spec 004) here only (scripts/script_env_test.ts holds this file to the
 *   script environment's table), through `Deno.env` or `process.env`,
 *   whichever exists.
 *
 * Records are one line on stderr each: U+001E, then the JSON of a
 * `LogRecord` (logs/record.ts; client/client_output.ts writes them;
 * decision 0004, "Records and control messages share stderr").
 *
 * @module
 */

import type { ToolEntry } from "../discovery/types.ts";
import { LEVEL_RANK } from "../logs/record.ts";
import type { Level } from "../logs/record.ts";
import { switchOn } from "../wire/wire.ts";
import { rtConfig } from "./client_config.ts";
import type { RuntimeEnv } from "./client_config.ts";
import { emit } from "./client_output.ts";
import { callTool, McpxCallError, QuestionError } from "./daemon_call.ts";
import type { CallOptions, ElicitAnswer, ElicitQuestion } from "./daemon_call.ts";
import { rtEnv, runtimeIo } from "./host_runtime.ts";
import { launcher } from "./launcher_hooks.ts";
import { log } from "./logger.ts";
import type { Logger, LogMethod } from "./logger.ts";
import { NamespaceError, namespaceWithoutTools } from "./namespace_guard.ts";
import { contentApis } from "./content_api.ts";
import type {
  PromptInfo,
  PromptResult,
  PromptsApi,
  ResourceInfo,
  ResourceResult,
  ResourcesApi,
  TemplateInfo,
} from "./content_api.ts";
import { namespaceObject, UnknownToolError } from "./namespace_object.ts";
import { captureFrames, errorFrames } from "./stack_frames.ts";
import type { StackFrame } from "./stack_frames.ts";
import { describe, search } from "./tool_index.ts";
import type { ScriptSearchHit } from "./tool_index.ts";
import { rawOf, ToolError, unwrapResult } from "./tool_result.ts";

export {
  callTool,
  captureFrames,
  contentApis,
  describe,
  emit,
  errorFrames,
  launcher,
  log,
  McpxCallError,
  NamespaceError,
  namespaceObject,
  namespaceWithoutTools,
  QuestionError,
  rawOf,
  runtimeIo,
  search,
  ToolError,
  UnknownToolError,
  unwrapResult,
};
export type {
  CallOptions,
  ElicitAnswer,
  ElicitQuestion,
  Logger,
  LogMethod,
  PromptInfo,
  PromptResult,
  PromptsApi,
  ResourceInfo,
  ResourceResult,
  ResourcesApi,
  ScriptSearchHit,
  StackFrame,
  TemplateInfo,
};

// ---------------------------------------------------------------------------
// What the run's environment says

reloadRuntimeEnv();

/**
 * Reads the environment again (socket, session, run id, levels, output
 * mode). The client reads it once on import; tests change it in-process.
 *
 * @internal
 */
export function reloadRuntimeEnv(): void {
  rtConfig.env = readRuntimeEnv();
  applyLevels();
}

function readRuntimeEnv(): RuntimeEnv {
  const pid = Number(rtEnv("MCPX_PID"));
  const daemonPid = Number(rtEnv("MCPX_DAEMON_PID"));
  return {
    // A daemon elsewhere (daemon.endpoint) has no socket here: its address is MCPX_ENDPOINT.
    socket: rtEnv("MCPX_SOCKET") || rtEnv("MCPX_ENDPOINT") || undefined,
    token: rtEnv("MCPX_TRANSPORT_BEARER_TOKEN") || undefined,
    session: rtEnv("MCPX_SESSION") || undefined,
    owner: rtEnv("MCPX_EPHEMERAL") === "1" ? "" : undefined,
    parentSession: rtEnv("MCPX_PARENT_SESSION_ID") || undefined,
    attach: rtEnv("MCPX_ATTACH") || undefined,
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
  rtConfig.logMinRank = LEVEL_RANK[level] ?? LEVEL_RANK.info;
  const source = (rtEnv("MCPX_LOG_SOURCE") ?? "").toLowerCase();
  let sourceMinRank: number;
  if (source === "true" || source === "1" || source === "all") sourceMinRank = 0;
  else if (source === "false" || source === "0" || source === "none") sourceMinRank = Infinity;
  else sourceMinRank = LEVEL_RANK[source as Level] ?? LEVEL_RANK.warn;
  rtConfig.sourceMinRank = sourceMinRank;
}

// ---------------------------------------------------------------------------
// Configuration from the generated part

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
  rtConfig.version = meta.version;
  rtConfig.tools = meta.tools.map((t) => ({
    ...t,
    description: t.description ?? "",
    tags: t.tags ?? [],
    inputSchema: t.inputSchema ?? {},
  }));
  rtConfig.declarations = meta.declarations;
}
