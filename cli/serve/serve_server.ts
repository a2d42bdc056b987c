/**
 * The MCP server instance behind `mcpx serve`: the serve tools
 * (cli/serve/serve_tools.ts) registered on the SDK's `McpServer`, each call run by
 * cli/serve/serve_call.ts under the caller's mcpx session. One factory serves both
 * protocol eras (the SDK's `serveStdio` and `createMcpHandler` pick the era);
 * only the way a request's session is found differs (decision 0044).
 *
 * @module
 */

import { McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { VERSION } from "../../core/version.ts";
import type { ContextOptions } from "../context_settings.ts";
import { runServeTool } from "./serve_call.ts";
import { type ServeTool, serveTools } from "./serve_tools.ts";
import type { AskClient } from "./serve_questions.ts";
import type { ServerContext } from "@modelcontextprotocol/server";
import { inputRound, type QuestionSeal } from "./serve_input.ts";
import { CursorError, pageOf } from "./serve_pages.ts";
import { registerTypesResources } from "./serve_resources.ts";
import {
  RELATED_TASK,
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
 */
export function serveServer(
  base: ContextOptions,
  sessionOf: (source: SessionSource) => string | undefined,
  shared: ServeShared,
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
  server.server.onclose = () => tasks.close();
  // The tool list never changes while serve runs: no list_changed is promised.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  // Namespaces come and go with the configuration, but serve does not watch it.
  server.server.registerCapabilities({ resources: { listChanged: false } });
  withToolHandlersWrapped(server, tasks, () => {
    registerTools(server, base, sessionOf, shared, tasks);
    registerTypesResources(server, base, (meta, sessionId) => sessionOf({ sessionId, meta }));
  });
  serveTaskRequests(server, tasks);
  return server;
}

/** Registers the serve tools, each call run by cli/serve/serve_call.ts. */
function registerTools(
  server: McpServer,
  base: ContextOptions,
  sessionOf: (source: SessionSource) => string | undefined,
  shared: ServeShared,
  tasks: ServeTaskStore,
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
        return await runServeTool(base, tool, args, {
          session: sessionOf({
            sessionId: ctx.sessionId,
            meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
          }),
          signal: ctx.mcpReq.signal,
          ...(taskId !== undefined ? taskAskOf(server, tasks, taskId) : askOf(server, ctx)),
          ...(input ? { input } : {}),
        }) as never;
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
 * task-capable tool started as a task. McpServer has no seam for either, so
 * its `setRequestHandler` calls are intercepted for the one registration.
 */
function withToolHandlersWrapped(
  server: McpServer,
  tasks: ServeTaskStore,
  register: () => void,
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
 * How a request's client is asked a server's question: over a 2025-era
 * connection whose client declared elicitation (or sampling), as a request
 * of its own on the call's stream. A 2026-07-28 request has no such channel
 * (its answer would be `input_required`, not done yet): no `ask`.
 */
function askOf(server: McpServer, ctx: ServerContext): { ask?: AskClient } {
  if (ctx.mcpReq.envelope !== undefined) return {};
  const declared = server.server.getClientCapabilities();
  if (!declared?.elicitation && !declared?.sampling) return {};
  return {
    ask: async (question) => {
      if (question.kind === "sampling") {
        if (!declared.sampling) return "decline";
        return await ctx.mcpReq.requestSampling(question.request as never) as never;
      }
      if (!declared.elicitation) return "decline";
      const result = await ctx.mcpReq.elicitInput(question.request as never);
      return result.action === "accept" ? result.content ?? {} : "decline";
    },
  };
}

/**
 * How a task's call asks its 2025-era client (MCP 2025-11-25, "Input Required
 * Status"): the task shows `input_required` until the client waits on
 * `tasks/result`, and the question goes out on that request, tied to the
 * task in `_meta`. No `ask` when the client declared neither capability.
 */
function taskAskOf(
  server: McpServer,
  tasks: ServeTaskStore,
  taskId: string,
): { ask?: AskClient } {
  const declared = server.server.getClientCapabilities();
  if (!declared?.elicitation && !declared?.sampling) return {};
  return {
    ask: (question) =>
      tasks.ask(taskId, async (channel) => {
        const request = question.request as Record<string, unknown>;
        const meta = (request._meta ?? {}) as Record<string, unknown>;
        const tied = {
          ...question,
          request: { ...request, _meta: { ...meta, [RELATED_TASK]: { taskId } } },
        };
        const { ask } = askOf(server, channel as ServerContext);
        return ask ? await ask(tied) : "decline";
      }),
  };
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
