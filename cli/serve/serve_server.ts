/**
 * The MCP server instance behind `mcpx serve`: the serve tools
 * (cli/serve/serve_tools.ts) registered on the SDK's `McpServer`, each call run by
 * cli/serve/serve_call.ts under the caller's mcpx session, and the configured
 * servers' prompts and resources, namespaced, beside serve's own signature
 * resources (cli/serve/serve_content.ts, decision 0073). One factory serves both
 * protocol eras (the SDK's `serveStdio` and `createMcpHandler` pick the era);
 * only the way a request's session is found differs (decision 0044), and a
 * 2025-era connection, which has a channel for notifications, also gets
 * resource subscriptions and `list_changed`.
 *
 * @module
 */

import { McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { VERSION } from "../../core/version.ts";
import type { ContextOptions } from "../context_settings.ts";
import { runServeTool } from "./serve_call.ts";
import { type ServeTool, serveTools } from "./serve_tools.ts";
import { askOf, taskAskOf } from "./serve_questions.ts";
import type { ServerContext } from "@modelcontextprotocol/server";
import { inputRound, type QuestionSeal } from "./serve_input.ts";
import { CursorError, pageOf } from "./serve_pages.ts";
import { typesResources } from "./serve_resources.ts";
import { registerContent } from "./serve_content.ts";
import { type ServeDaemon, serveDaemon } from "./serve_daemon.ts";
import { subscriptionRelay } from "./subscription_relay.ts";
import { namespacedUri } from "./serve_names.ts";
import { type HearNotification, withCallNotices } from "./passthrough_notices.ts";
import {
  ServeTaskStore,
  TASK_ID_PARAMS,
  TASK_LIST_PARAMS,
  TaskRequestError,
  type ToolResult,
} from "./serve_tasks.ts";

/**
 * The `_meta` key a request names its mcpx session under: what a 2026-07-28
 * client, which has no transport session, sends so its calls lease as one
 * caller (`{ "_meta": { "mcpx/session": "<key>" } }`; docs/serve.md).
 */
export const SESSION_META_KEY = "mcpx/session";

/** What a tool call's handler context holds that names its session. */
export interface SessionSource {
  /** The transport's session (a legacy Streamable HTTP client's `Mcp-Session-Id`). */
  sessionId?: string;
  /** The request's `_meta`, the reserved envelope keys lifted out. */
  meta?: Record<string, unknown>;
}

/** What one serve process shares between its server instances. */
export interface ServeShared {
  /** Seals the `requestState` of questions put to 2026-07-28 clients (cli/serve/serve_input.ts). */
  seal: QuestionSeal;
  /** `tasks.ttl`: the longest a client's task may live, and what it gets when it asks none, ms. */
  taskTtlMs: number;
  /** The tools listed (`serve --tools`; default the core set: cli/serve/serve_tools.ts). */
  tools?: ServeTool[];
  /** Where prompts, resources and subscriptions come from (default: the daemon; tests pass their own). */
  daemon?: ServeDaemon;
}

/** The serve tools a client may run as a task: the two that can take long (decision 0050). */
export const TASK_TOOLS: ReadonlySet<string> = new Set(["mcpx_call", "mcpx_exec"]);

/** Holds, in the context of a call running as a task, the task's id. */
const IN_TASK = Symbol("mcpx serve task");

/**
 * Builds one server instance: one client connection (stdio), one legacy
 * `Mcp-Session-Id`, or one 2026-07-28 request.
 *
 * @param base The serve command's context options.
 * @param sessionOf The mcpx session a request leases under, from its source;
 *   undefined: the request is its own caller.
 * @param shared The process's seal and task TTL.
 * @param era The protocol era the instance serves (the SDK's factory says):
 *   a 2026-07-28 instance has no subscriptions and no `list_changed`.
 */
export function serveServer(
  base: ContextOptions,
  sessionOf: (source: SessionSource) => string | undefined,
  shared: ServeShared,
  era: "legacy" | "modern" = "legacy",
): McpServer {
  const server = new McpServer(
    { name: "mcpx", version: VERSION },
    {
      // Tools are declared below, once the tool handlers are wrapped.
      capabilities: {
        // MCP 2025-11-25 tasks; the 2026-07-28 codec leaves them off that era's wire.
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      } as never,
      requestState: { verify: shared.seal.verify },
      instructions:
        "mcpx reaches every MCP server configured on this machine without loading their schemas: " +
        "mcpx_search finds tools, mcpx_types shows the signatures of the ones found, mcpx_call calls " +
        "one, and mcpx_exec runs TypeScript that calls many and answers only what it prints.",
    },
  );
  const tasks = new ServeTaskStore(shared.taskTtlMs);
  const daemon = shared.daemon ?? serveDaemon(base);
  // A 2025-era connection hears what changed upstream (decision 0073); a 2026-07-28 one has
  // no channel serve can send it on.
  const low = server.server;
  const relay = era === "legacy"
    ? subscriptionRelay(daemon, {
      resourceUpdated: (namespace, uri) =>
        low.sendResourceUpdated({ uri: namespacedUri(namespace, uri) }),
      listChanged: (_namespace, list) =>
        list === "prompts"
          ? low.sendPromptListChanged()
          : list === "resources"
          ? low.sendResourceListChanged()
          : Promise.resolve(),
    })
    : undefined;
  low.onclose = () => {
    tasks.close();
    void relay?.close();
  };
  const listChanged = era === "legacy";
  low.registerCapabilities({
    // serve's own tools never change while it runs: no list_changed is promised for them.
    tools: { listChanged: false },
    // The merged lists change when an upstream's do; the configuration is not watched.
    prompts: { listChanged },
    resources: listChanged ? { subscribe: true, listChanged } : { listChanged },
    completions: {},
  });
  // The level a 2025-era client set applies to the log messages serve passes on (decision 0073).
  const heard = { logLevelSet: false };
  withToolHandlersWrapped(server, tasks, () => {
    low.registerCapabilities({ logging: {} });
    registerTools(server, base, sessionOf, shared, tasks, heard);
    registerContent(server, {
      daemon,
      types: typesResources(base),
      callerOf: (sctx) => ({
        session: sessionAnswering(() =>
          sessionOf({
            sessionId: sctx.sessionId,
            meta: sctx.mcpReq._meta as Record<string, unknown> | undefined,
          })
        ),
        signal: sctx.mcpReq.signal,
      }),
      note: (line) => base.io.err(`mcpx serve: ${line}\n`),
      ...(relay ? { relay } : {}),
    });
  }, () => void (heard.logLevelSet = true));
  serveTaskRequests(server, tasks);
  return server;
}

/** What `session` answers; a `_meta` session that is not a name is the request's invalid params. */
function sessionAnswering(session: () => string | undefined): string | undefined {
  try {
    return session();
  } catch (error) {
    if (error instanceof TypeError) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
    }
    throw error;
  }
}

/**
 * Registers the serve tools, each call run by cli/serve/serve_call.ts. A
 * plain `mcpx_call` passes on what its upstream says while it runs (its
 * progress, when the client asked with a progress token; its log messages,
 * once a 2025-era client set a level, or at the level a 2026-07-28 request
 * names), as the passthrough does (cli/serve/passthrough_notices.ts); `heard`
 * says whether the client set a level.
 */
function registerTools(
  server: McpServer,
  base: ContextOptions,
  sessionOf: (source: SessionSource) => string | undefined,
  shared: ServeShared,
  tasks: ServeTaskStore,
  heard: { logLevelSet: boolean },
): void {
  for (const tool of shared.tools ?? serveTools()) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.input,
        annotations: tool.annotations,
      },
      async (args: Record<string, unknown>, ctx) => {
        const taskId = (ctx as { [IN_TASK]?: string })[IN_TASK];
        const input = taskId !== undefined ? undefined : await inputRound(ctx, shared.seal);
        const run = (hear?: HearNotification) =>
          runServeTool(base, tool, args, {
            session: sessionOf({
              sessionId: ctx.sessionId,
              meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
            }),
            signal: ctx.mcpReq.signal,
            ...(taskId !== undefined ? taskAskOf(server, tasks, taskId) : askOf(server, ctx)),
            ...(input ? { input } : {}),
            ...(hear ? { onNotification: hear } : {}),
          });
        if (tool.name !== "mcpx_call" || taskId !== undefined) return await run() as never;
        return await withCallNotices(
          ctx,
          (hear) => run(hear),
          { legacyLogs: heard.logLevelSet },
        ) as never;
      },
    );
  }
}

/**
 * A serve tool as listed without its input schema's `$schema`: the SDK
 * writes the draft's URL into every schema it makes from zod, 61 bytes a tool
 * that tell a client nothing (MCP 2025-11-25 takes a schema without one as
 * JSON Schema 2020-12).
 */
function withoutDialect<T extends { name: string }>(tool: T): T {
  const schema = (tool as { inputSchema?: Record<string, unknown> }).inputSchema;
  if (!schema || !("$schema" in schema)) return tool;
  const { $schema: _dialect, ...rest } = schema;
  return { ...tool, inputSchema: rest };
}

/** The lists serve answers a page at a time, and the member each one's entries are under. */
const LISTS: Record<string, string> = {
  "tools/list": "tools",
  "prompts/list": "prompts",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
};

// deno-lint-ignore no-explicit-any
type RawHandler = (request: any, ctx: ServerContext) => Promise<any>;

/**
 * Runs `register` with the SDK's own list and `tools/call` handlers wrapped
 * as McpServer installs them: `tools/list`, `resources/list` and
 * `resources/templates/list` answered a page at a time (cli/serve/serve_pages.ts),
 * task-capable tools marked `execution.taskSupport:
 * "optional"` for a 2025-era client; `tools/call` with `task` params on a
 * task-capable tool started as a task; `logging/setLevel` told to `onLevel`
 * before the SDK's own handler keeps the level. McpServer has no seam for
 * any of these, so its `setRequestHandler` calls are intercepted for the one
 * registration.
 */
function withToolHandlersWrapped(
  server: McpServer,
  tasks: ServeTaskStore,
  register: () => void,
  onLevel: () => void = () => {},
): void {
  const low = server.server;
  const set = low.setRequestHandler.bind(low) as (method: string, handler: RawHandler) => void;
  const wrap = (method: string, handler: RawHandler): RawHandler =>
    method in LISTS
      ? async (request, sctx) => {
        const key = LISTS[method];
        const listed = await handler(request, sctx) as Record<string, { name: string }[]>;
        const legacy = sctx.mcpReq.envelope === undefined;
        let page;
        try {
          page = pageOf(method, listed[key], request.params?.cursor);
        } catch (error) {
          if (error instanceof CursorError) {
            throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
          }
          throw error;
        }
        return {
          ...listed,
          [key]: page.items.map((t) =>
            key === "tools"
              ? {
                ...withoutDialect(t),
                ...(legacy && TASK_TOOLS.has(t.name)
                  ? { execution: { taskSupport: "optional" } }
                  : {}),
              }
              : t
          ),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        };
      }
      : method === "tools/call"
      ? (request, sctx) => {
        const task = request.params?.task as { ttl?: number } | undefined;
        // A task is a 2025-11-25 request; elsewhere (or on another tool) it is a plain call.
        if (!task || !TASK_TOOLS.has(request.params.name) || sctx.mcpReq.envelope !== undefined) {
          return handler(request, sctx);
        }
        const view = tasks.create(task.ttl, (signal, taskId) =>
          handler(request, {
            ...sctx,
            mcpReq: { ...sctx.mcpReq, signal },
            [IN_TASK]: taskId,
          } as ServerContext) as Promise<ToolResult>);
        // The SDK checks every tools/call answer as a CallToolResult: an empty `content`
        // lets the CreateTaskResult through (its schema is open to further members).
        return Promise.resolve({ content: [], task: view });
      }
      : method === "logging/setLevel"
      ? (request, sctx) => {
        onLevel();
        return handler(request, sctx);
      }
      : handler;
  low.setRequestHandler =
    ((method: string, handler: RawHandler) =>
      set(method, wrap(method, handler))) as typeof low.setRequestHandler;
  try {
    register();
  } finally {
    // The prototype's method again.
    delete (low as { setRequestHandler?: unknown }).setRequestHandler;
  }
}

/** `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` from `tasks` (MCP 2025-11-25). */
function serveTaskRequests(server: McpServer, tasks: ServeTaskStore): void {
  const low = server.server;
  const answer = async <T>(run: () => T | Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof TaskRequestError) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      }
      throw error;
    }
  };
  low.setRequestHandler(
    "tasks/get",
    { params: TASK_ID_PARAMS },
    (p) => answer(() => ({ ...tasks.get(p.taskId) })),
  );
  low.setRequestHandler(
    "tasks/result",
    { params: TASK_ID_PARAMS },
    (p, sctx) => answer(() => tasks.result(p.taskId, sctx.mcpReq.signal, sctx)),
  );
  low.setRequestHandler(
    "tasks/cancel",
    { params: TASK_ID_PARAMS },
    (p) => answer(() => ({ ...tasks.cancel(p.taskId) })),
  );
  low.setRequestHandler(
    "tasks/list",
    { params: TASK_LIST_PARAMS },
    (p) => answer(() => tasks.list(p.cursor)),
  );
}

/**
 * The session a request named in `_meta` (`mcpx/session`), if a non-empty string.
 *
 * @throws {TypeError} When `mcpx/session` is there but not a non-empty string
 *   (the tool call then fails naming the key and the value).
 */
export function metaSession(meta: Record<string, unknown> | undefined): string | undefined {
  const value = meta?.[SESSION_META_KEY];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(
      `_meta["${SESSION_META_KEY}"] must be a non-empty string naming the session, got ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}
