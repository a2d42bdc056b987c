/**
 * `mcpx serve --passthrough <namespace>`: one configured upstream served as
 * an MCP server of its own, its tools, prompts, resources, resource
 * templates and completions under their own names (no namespace prefix),
 * with mcpx in front: every request goes through the daemon as `mcpx call`,
 * `mcpx prompts` and `mcpx resources` do (pooling, leasing, logging), and
 * the upstream's questions (elicitation, sampling) are put to this server's
 * own client. Decision 0045 says what is passed through and what is not.
 *
 * Served over stdio, or Streamable HTTP at `/mcp` (cli/serve/serve_passthrough_http.ts),
 * to clients of either protocol era (the SDK's `serveStdio`/`createMcpHandler`).
 *
 * @module
 */

import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { mapNames, type NameMap } from "./passthrough_names.ts";
import { ListedSchemas, passthroughMcpServer } from "./passthrough_headers.ts";
import { type HearNotification, withCallNotices } from "./passthrough_notices.ts";
import { passthroughSubscriptions, subscriptionsSettled } from "./passthrough_subscriptions.ts";
import type { CliContext } from "../context.ts";
import type { ServeListen } from "./serve_listen.ts";
import { McpxError, UsageError } from "../../core/errors.ts";
import type { ToolEntry } from "../../discovery/types.ts";
import { VERSION } from "../../core/version.ts";
import {
  answerOf,
  clientCapabilitiesOf,
  passOn,
  type RoundCodec,
  roundCodec,
  roundOf,
} from "./passthrough_input.ts";

/** Options of {@link servePassthrough}: `http` serves Streamable HTTP instead of stdio. */
export interface PassthroughOptions {
  http?: ServeListen;
}

/**
 * Serves `namespace`'s upstream until the client goes away (stdio: stdin
 * closes) or the process is stopped (HTTP).
 *
 * @param ctx The command's context (configuration, settings, daemon).
 * @param namespace A configured server's namespace or name.
 * @returns The exit code: 0 when the client went away.
 * @throws {UsageError} When no configured server has that namespace; the
 *   message names the namespaces there are.
 */
export async function servePassthrough(
  ctx: CliContext,
  namespace: string,
  options: PassthroughOptions,
): Promise<number> {
  const upstream = await upstreamOf(ctx, namespace);
  // The sealed state a question round carries is verified by this process alone.
  const codec = roundCodec();
  // The listing last served: what SEP-2243 Mcp-Param headers are checked against.
  const schemas = new ListedSchemas();
  schemas.update(await toolsOf(ctx, upstream));
  // Over stdio the process serves one connection: one caller for all its requests.
  const build = (connection?: string) =>
    passthroughServer(ctx, upstream, codec, connection, schemas);
  if (options.http) {
    const { servePassthroughHttp } = await import("./serve_passthrough_http.ts");
    return await servePassthroughHttp(
      build,
      options.http,
      (url) => ctx.io.err(`mcpx: serving ${upstream.namespace} at ${url}\n`),
    );
  }
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  const closed = Promise.withResolvers<void>();
  serveStdio(() => {
    const server = build(`passthrough-${crypto.randomUUID()}`);
    const ended = server.server.onclose;
    server.server.onclose = () => {
      ended?.();
      closed.resolve();
    };
    return server;
  });
  await closed.promise;
  await subscriptionsSettled();
  return 0;
}

/** The configured upstream a passthrough serves. */
interface Upstream {
  namespace: string;
  /** The server's name (the daemon's and the schema cache's key). */
  name: string;
  instructions?: string;
  /** The upstream declares `resources.subscribe` (as its last listing recorded). */
  subscribe?: boolean;
}

async function upstreamOf(ctx: CliContext, asked: string): Promise<Upstream> {
  const config = await ctx.config();
  const server = config.servers.find((s) => s.namespace === asked) ??
    config.servers.find((s) => s.name === asked);
  if (!server || server.disabled) {
    const names = config.servers.filter((s) => !s.disabled).map((s) => s.namespace);
    throw new UsageError(
      `no configured server has the namespace "${asked}"${
        names.length ? `; configured: ${names.join(", ")}` : ""
      }; \`mcpx ls\` lists them`,
    );
  }
  if (server.unavailable) throw new McpxError("server-unavailable", server.unavailable.message);
  const view = await ctx.namespaces({ schemas: [server.namespace] });
  const entry = view.entry(server);
  if (!entry || entry.error) {
    throw new McpxError(
      "server-unavailable",
      `${server.namespace} could not be listed: ${entry?.error?.message ?? "no listing"}`,
    );
  }
  return {
    namespace: server.namespace,
    name: server.name,
    ...(entry.instructions ? { instructions: entry.instructions } : {}),
    ...(entry.subscribe ? { subscribe: true } : {}),
  };
}

/**
 * The upstream's tools as its namespace shows them (read again each time: a
 * relisting shows): the namespace view's, so the configuration's tool lists
 * (`tools`, `excludeTools`, an alias's subset) hide here as on every other
 * surface, by the tools' real names.
 */
async function toolsOf(ctx: CliContext, upstream: Upstream): Promise<ServedTool[]> {
  const view = await ctx.namespaces({ schemas: [upstream.namespace] });
  const tools = view.namespaces.find((ns) => ns.namespace === upstream.namespace)?.tools ?? [];
  return tools.map((t) => ({
    name: t.tool,
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: t.inputSchema as { type: "object" },
    ...(t.outputSchema ? { outputSchema: t.outputSchema as { type: "object" } } : {}),
    ...(t.annotations ? { annotations: t.annotations } : {}),
  }));
}

/** A tool as `tools/list` serves it (MCP `Tool`), named by its real name. */
interface ServedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: "object" };
  outputSchema?: { type: "object" };
  annotations?: ToolEntry["annotations"];
}

/**
 * One MCP server instance answering from the daemon. Capabilities declared
 * are what mcpx delivers for any upstream: tools, prompts, resources (list,
 * read, templates), completions and logging (an upstream's log messages
 * during a call, decision 0048), and resource subscriptions when the
 * upstream offers them (decision 0048); never list_changed, which the daemon
 * does not pass on (decision 0045).
 */
function passthroughServer(
  ctx: CliContext,
  upstream: Upstream,
  codec: RoundCodec,
  connection: string | undefined,
  schemas: ListedSchemas,
): McpServer {
  // The mcpx session each request leases as (the `session` caller field wins over the command's).
  const caller = (sctx: ServerContext) => {
    const session = callerSession(ctx, sctx, connection);
    return session ? { session } : {};
  };
  // The daemon answers these for any upstream: one without prompts lists none, one without
  // completion completes nothing (decision 0045).
  const mcp = passthroughMcpServer({ name: `mcpx-${upstream.namespace}`, version: VERSION }, {
    ...(upstream.instructions ? { instructions: upstream.instructions } : {}),
    requestState: { verify: codec.verify },
  }, schemas);
  const server = mcp.server;
  server.registerCapabilities({
    tools: {},
    prompts: {},
    resources: upstream.subscribe ? { subscribe: true } : {},
    completions: {},
    logging: {},
  });
  const ns = upstream.namespace;
  if (upstream.subscribe) {
    const subscriptions = passthroughSubscriptions(ctx, server, ns, caller);
    server.onclose = () => void subscriptions.close();
  }

  // The names a strict client gets (cli/serve/passthrough_names.ts), from the last listing.
  let names: NameMap | undefined;
  let warned = new Set<string>();
  const listTools = async () => {
    const upstreamTools = await toolsOf(ctx, upstream);
    names = mapNames(upstreamTools.map((t) => t.name));
    for (const warning of names.hidden) {
      if (!warned.has(warning)) ctx.io.err(`warning: ${ns}: ${warning}\n`);
    }
    warned = new Set(names.hidden);
    const byName = new Map(upstreamTools.map((t) => [t.name, t]));
    const tools = [...names.listed].map(([listed, own]) => ({ ...byName.get(own)!, name: listed }));
    schemas.update(tools);
    return tools;
  };
  server.setRequestHandler("tools/list", async () => ({ tools: await listTools() as never }));

  // One round of a request whose upstream may ask the client first (cli/serve/passthrough_input.ts):
  // a stored question's answer, or the request relayed with the client's answers.
  const round = async (
    sctx: ServerContext,
    request: Record<string, unknown>,
    hear?: HearNotification,
    logLevel?: string,
  ): Promise<unknown> => {
    const r = await roundOf(sctx);
    if ("question" in r) {
      return await ctx.request("questionAnswer", {
        ...caller(sctx),
        id: r.question.id,
        ...answerOf(r.question.response),
        // The answer comes from this server's client, which put the question to its user.
        tty: true,
        wait: true,
      });
    }
    const capabilities = clientCapabilitiesOf(sctx, server.getClientCapabilities());
    return await ctx.request("relay", {
      ...caller(sctx),
      namespace: ns,
      ...request,
      ...r.relay,
      ...(capabilities ? { clientCapabilities: capabilities } : {}),
      ...(logLevel ? { logLevel } : {}),
    }, hear ? { onNotification: hear } : {});
  };

  server.setRequestHandler("tools/call", async (request, sctx) => {
    const { name: asked, arguments: args } = request.params;
    // A client that calls before it lists still calls by the listed names.
    if (!names) await listTools();
    const name = names?.listed.get(asked) ?? asked;
    const answer = await withCallNotices(
      sctx,
      (hear, logLevel) =>
        round(sctx, { method: "tools/call", name, arguments: args ?? {} }, hear, logLevel),
    );
    return await passOn(answer, codec) as never;
  });

  server.setRequestHandler("prompts/list", async (_request, sctx) => {
    const [entry] = await ctx.request<{ prompts: unknown[]; error?: string }[]>("prompts", {
      ...caller(sctx),
      namespace: ns,
    });
    if (entry?.error) throw new ProtocolError(ProtocolErrorCode.InternalError, entry.error);
    return { prompts: (entry?.prompts ?? []) as never };
  });
  server.setRequestHandler("prompts/get", async (request, sctx) => {
    const { name, arguments: args } = request.params;
    const answer = await upstreamRequest(() =>
      round(sctx, { method: "prompts/get", name, arguments: args ?? {} })
    );
    return await passOn(answer, codec) as never;
  });

  const listing = async (sctx: ServerContext) => {
    const [entry] = await ctx.request<
      { resources: unknown[]; resourceTemplates: unknown[]; error?: string }[]
    >("resources", { ...caller(sctx), namespace: ns });
    if (entry?.error) throw new ProtocolError(ProtocolErrorCode.InternalError, entry.error);
    return entry ?? { resources: [], resourceTemplates: [] };
  };
  server.setRequestHandler("resources/list", async (_request, sctx) => ({
    resources: (await listing(sctx)).resources as never,
  }));
  server.setRequestHandler("resources/templates/list", async (_request, sctx) => ({
    resourceTemplates: (await listing(sctx)).resourceTemplates as never,
  }));
  server.setRequestHandler("resources/read", async (request, sctx) => {
    const { uri } = request.params;
    const answer = await upstreamRequest(
      () => round(sctx, { method: "resources/read", uri }),
      { uri },
    );
    return await passOn(answer, codec, { uri }) as never;
  });

  server.setRequestHandler("completion/complete", async (request, sctx) => {
    const { ref, argument, context } = request.params;
    const done = await ctx.request<{ values: string[]; total?: number; hasMore?: boolean }>(
      "complete",
      {
        ...caller(sctx),
        namespace: ns,
        ref,
        argument,
        ...(context?.arguments ? { context: context.arguments } : {}),
      },
    );
    return {
      completion: {
        values: done.values,
        ...(done.total !== undefined ? { total: done.total } : {}),
        ...(done.hasMore !== undefined ? { hasMore: done.hasMore } : {}),
      },
    };
  });
  return mcp;
}

/** The `_meta` key a 2026-07-28 client names its mcpx session with (it has no transport session). */
export const SESSION_META_KEY = "mcpx/session";

/**
 * The mcpx session a request leases as: the serve command's own
 * (`--session`, `MCPX_SESSION_ID`) when it has one; else the client's: a
 * 2025-era HTTP client's `Mcp-Session-Id`, a 2026-07-28 client's
 * `_meta["mcpx/session"]`, or the stdio connection (`connection`); else
 * none (a 2026-07-28 HTTP request that names none is a caller of its own).
 */
function callerSession(
  ctx: CliContext,
  sctx: ServerContext,
  connection: string | undefined,
): string | undefined {
  if (ctx.session) return ctx.session;
  const named = (sctx.mcpReq._meta as Record<string, unknown> | undefined)?.[SESSION_META_KEY];
  if (typeof named === "string" && named !== "") return named;
  if (sctx.sessionId) return `passthrough-${sctx.sessionId}`;
  return connection;
}

/**
 * A daemon request whose failure is the upstream's answer to this client's
 * request: an upstream that refused the parameters (-32602, a resource that
 * does not exist) is answered -32602 with `data` (SEP-2164 names the URI
 * there); anything else is an internal error naming what mcpx said.
 */
async function upstreamRequest<T>(send: () => Promise<T>, data?: Record<string, unknown>) {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof McpxError)) throw error;
    const code = upstreamCode(error);
    throw new ProtocolError(
      code === ProtocolErrorCode.InvalidParams || code === -32002
        ? ProtocolErrorCode.InvalidParams
        : ProtocolErrorCode.InternalError,
      error.message,
      data,
    );
  }
}

/** The JSON-RPC code the upstream answered, when the daemon's error carries one. */
function upstreamCode(error: McpxError): number | undefined {
  const data = (error as { data?: { code?: unknown; serverError?: { code?: unknown } } }).data;
  const code = data?.code ?? data?.serverError?.code;
  return typeof code === "number" ? code : undefined;
}
