/**
 * One OpenAPI document served as an MCP server over stdio (`mcpx api serve`):
 * each offered operation a tool, called as an HTTP request to the service.
 * Built with the SDK's server package, so either protocol era is spoken; the
 * daemon spawns it like any stdio upstream (config/derived_servers.ts), so
 * pooling, scope, the log and the schema cache apply unchanged (decision 0053).
 *
 * @module
 */

import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { VERSION } from "../core/version.ts";
import { McpxError } from "../core/errors.ts";
import type { ApiOperation } from "./operations.ts";
import { callOperation, type CallOptions, type ToolResult } from "./request.ts";
import { Redactor } from "../core/redact.ts";

/** An MCP tool's annotations (MCP 2025-06-18, "Tool annotations"). */
interface Annotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * The `tools/list` entry of an operation: its name, description, input schema
 * and annotations from its method (RFC 9110 section 9.2: GET and HEAD are
 * safe, PUT and DELETE idempotent; DELETE destroys).
 */
export function toolOf(op: ApiOperation): {
  name: string;
  description: string;
  inputSchema: ApiOperation["inputSchema"];
  annotations: Annotations;
} {
  const safe = op.method === "get" || op.method === "head" || op.method === "options";
  return {
    name: op.tool,
    description: op.description,
    inputSchema: op.inputSchema,
    annotations: {
      readOnlyHint: safe,
      destructiveHint: op.method === "delete",
      idempotentHint: safe || op.method === "put" || op.method === "delete",
      openWorldHint: true,
    },
  };
}

/** What {@link callTool} and {@link serveApi} need besides the operations. */
export interface ServeOptions extends CallOptions {
  /**
   * Replaces the declaration's secrets (config/secrets.ts `declarationSecrets`)
   * by their references in everything the server answers: a service may echo
   * the key it was sent, in an error body or anywhere else (decision 0017).
   */
  redactor?: Pick<Redactor, "json" | "text">;
}

/**
 * Calls the tool `name` and answers as `tools/call` does: an argument or
 * request problem is an error result naming it (the caller can correct it),
 * an unknown tool a protocol error. With `options.redactor`, the result's and
 * the error's text carry no secret of the declaration.
 *
 * @throws {ProtocolError} InvalidParams for a tool the API does not offer.
 */
export async function callTool(
  operations: readonly ApiOperation[],
  name: string,
  args: Record<string, unknown>,
  options: ServeOptions,
): Promise<ToolResult> {
  const redactor = options.redactor ?? new Redactor();
  const op = operations.find((o) => o.tool === name);
  if (!op) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      redactor.text(
        `no tool ${JSON.stringify(name)}; offered: ${operations.map((o) => o.tool).join(", ")}`,
      ),
    );
  }
  try {
    return redactor.json(await callOperation(op, args, options));
  } catch (error) {
    if (!(error instanceof McpxError)) throw error;
    return { content: [{ type: "text", text: redactor.text(error.message) }], isError: true };
  }
}

/**
 * Serves `operations` over stdio until the client closes stdin.
 *
 * @param name The server's name in its `initialize` answer (`mcpx-api-<name>`).
 * @param operations The tools.
 * @param options Auth, headers and the timeout of every call, and the redactor of every answer.
 * @param instructions The document's description, if any, as the server's instructions.
 */
export async function serveApi(
  name: string,
  operations: readonly ApiOperation[],
  options: ServeOptions,
  instructions?: string,
): Promise<void> {
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  const closed = Promise.withResolvers<void>();
  serveStdio(() => {
    const server = new Server({ name: `mcpx-api-${name}`, version: VERSION }, {
      capabilities: { tools: {} },
      ...(instructions ? { instructions } : {}),
    });
    const redactor = options.redactor ?? new Redactor();
    server.setRequestHandler("tools/list", () => ({
      tools: redactor.json(operations.map(toolOf)) as never,
    }));
    server.setRequestHandler("tools/call", async (request) => {
      const { name: tool, arguments: args } = request.params;
      return await callTool(operations, tool, args ?? {}, options) as never;
    });
    server.onclose = () => closed.resolve();
    return server;
  });
  await closed.promise;
}
