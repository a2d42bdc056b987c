import assert from "node:assert/strict";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { ListedSchemas, passthroughMcpServer } from "./passthrough_headers.ts";

const REVISION = "2026-07-28";

/** A 2026-07-28 `tools/call` of `region` with `arguments`, and the headers given. */
function call(args: Record<string, unknown>, headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": REVISION,
      "mcp-method": "tools/call",
      "mcp-name": "region",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "region",
        arguments: args,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": REVISION,
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
}

Deno.test("passthroughMcpServer() has the SDK check Mcp-Param headers against the listed schema (SEP-2243)", async () => {
  const schemas = new ListedSchemas();
  schemas.update([{
    name: "region",
    inputSchema: {
      type: "object",
      properties: { region: { type: "string", "x-mcp-header": "Region" } },
    },
  }]);
  const handler = createMcpHandler(() => {
    const mcp = passthroughMcpServer({ name: "t", version: "1" }, {}, schemas);
    mcp.server.registerCapabilities({ tools: {} });
    mcp.server.setRequestHandler("tools/call", (request) => ({
      content: [{ type: "text", text: `region=${request.params.arguments?.region}` }],
    }));
    return mcp;
  }, { legacy: "reject" });
  try {
    const cases: [string, Record<string, string>, number][] = [
      ["matching", { "mcp-param-region": "eu" }, 200],
      ["Base64 of the same", { "mcp-param-region": `=?base64?${btoa("eu")}?=` }, 200],
      ["missing", {}, 400],
      ["different", { "mcp-param-region": "us" }, 400],
      ["bad Base64", { "mcp-param-region": "=?base64?ZX!!?=" }, 400],
    ];
    for (const [what, headers, status] of cases) {
      const response = await handler.fetch(call({ region: "eu" }, headers));
      const text = await response.text();
      assert.equal(response.status, status, `${what}: ${text}`);
      if (status === 400) assert.match(text, /-32020/, what);
    }
    // A tool the listing does not have is not checked.
    schemas.update([]);
    assert.equal((await handler.fetch(call({ region: "eu" }, {}))).status, 200);
  } finally {
    await handler.close();
  }
});
