/**
 * The MCP server instance behind `mcpx serve`: the serve tools
 * (cli/serve_tools.ts) registered on the SDK's `McpServer`, each call run by
 * cli/serve_call.ts under the caller's mcpx session. One factory serves both
 * protocol eras (the SDK's `serveStdio` and `createMcpHandler` pick the era);
 * only the way a request's session is found differs (decision 0044).
 *
 * @module
 */

import { McpServer } from "@modelcontextprotocol/server";
import { VERSION } from "../core/version.ts";
import type { ContextOptions } from "./context_settings.ts";
import { runServeTool } from "./serve_call.ts";
import { serveTools } from "./serve_tools.ts";
import type { AskClient } from "./serve_questions.ts";
import type { ServerContext } from "@modelcontextprotocol/server";

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

/**
 * Builds one server instance.
 *
 * @param base The serve command's context options.
 * @param sessionOf The mcpx session a request leases under, from its source;
 *   undefined: the request is its own caller.
 */
export function serveServer(
  base: ContextOptions,
  sessionOf: (source: SessionSource) => string | undefined,
): McpServer {
  const server = new McpServer(
    { name: "mcpx", version: VERSION },
    {
      // The tool list never changes while serve runs: no list_changed is promised.
      capabilities: { tools: { listChanged: false } },
      instructions:
        "mcpx reaches every MCP server configured on this machine without loading their schemas: " +
        "mcpx_search finds tools, mcpx_types shows the signatures of the ones found, mcpx_call calls " +
        "one, and mcpx_exec runs TypeScript that calls many and answers only what it prints.",
    },
  );
  for (const tool of serveTools()) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.input,
        ...(tool.output ? { outputSchema: tool.output as never } : {}),
        annotations: tool.annotations,
      },
      (args: Record<string, unknown>, ctx) =>
        runServeTool(base, tool, args, {
          session: sessionOf({
            sessionId: ctx.sessionId,
            meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
          }),
          signal: ctx.mcpReq.signal,
          ...askOf(server, ctx),
        }) as never,
    );
  }
  return server;
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
