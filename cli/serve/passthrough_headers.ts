/**
 * SEP-2243 `Mcp-Param-*` headers on the passthrough's 2026-07-28 HTTP path
 * (MCP 2026-07-28, "Transports", "Server behavior for custom headers"): a
 * tool whose input schema marks a property with `x-mcp-header` has that
 * argument mirrored into an `Mcp-Param-<Name>` header by the client, and the
 * server must refuse a `tools/call` whose header is missing, not valid Base64
 * where it claims to be, or disagrees with the body (HTTP 400, -32020
 * HeaderMismatch).
 *
 * The SDK's HTTP entry (`createMcpHandler`) performs that check before
 * dispatch, for a server that is an `McpServer`, against the schema its
 * `toolInputSchemaJson(name)` answers. The passthrough registers no tools on
 * the `McpServer` (the SDK would then validate every call's arguments
 * against the upstream's schema itself, and answer tools/list and tools/call
 * its own way): {@link passthroughMcpServer} answers that lookup from the
 * listing the passthrough last served instead, so the SDK's own check runs
 * for the upstream's tools (decision 0048).
 *
 * @module
 */

import { McpServer, type McpServerOptions } from "@modelcontextprotocol/server";
import type { Implementation } from "@modelcontextprotocol/server";

/**
 * The input schemas of the upstream's tools as the passthrough last listed
 * them (a client mirrors headers from the listing it read).
 */
export class ListedSchemas {
  #byName = new Map<string, Record<string, unknown>>();

  /** Replaces what is kept with `tools`' input schemas. */
  update(tools: readonly { name: string; inputSchema?: unknown }[]): void {
    this.#byName = new Map(
      tools.filter((t) => t.inputSchema && typeof t.inputSchema === "object")
        .map((t) => [t.name, t.inputSchema as Record<string, unknown>]),
    );
  }

  /** The input schema of tool `name`, or undefined when the last listing did not have it. */
  get(name: string): Record<string, unknown> | undefined {
    return this.#byName.get(name);
  }
}

/**
 * An `McpServer` with no tools of its own whose SEP-2243 header check reads
 * the tool schemas from `schemas`. Handlers are set on its `server` (the
 * low-level `Server`); capabilities are given with `server.registerCapabilities`
 * (giving them to the constructor would install the McpServer's own tool,
 * prompt and resource handlers).
 *
 * @param info The server's name and version.
 * @param options Server options without capabilities (`instructions`, `requestState`).
 * @param schemas The listing the check reads.
 */
export function passthroughMcpServer(
  info: Implementation,
  options: Omit<McpServerOptions, "capabilities">,
  schemas: ListedSchemas,
): McpServer {
  return new ListedToolsServer(info, options, schemas);
}

class ListedToolsServer extends McpServer {
  #schemas: ListedSchemas;

  constructor(
    info: Implementation,
    options: Omit<McpServerOptions, "capabilities">,
    schemas: ListedSchemas,
  ) {
    super(info, options);
    this.#schemas = schemas;
  }

  /** The schema the SDK's HTTP entry validates `Mcp-Param-*` headers against. */
  override toolInputSchemaJson(name: string): Record<string, unknown> | undefined {
    return this.#schemas.get(name);
  }
}
