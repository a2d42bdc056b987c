import assert from "node:assert/strict";
import { Client, InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/client";
import { progressBeforeResponse } from "./progress_order.ts";

/**
 * A client connected to a scripted 2025-era server that answers `tools/call`
 * with three progress notifications and its result in one burst.
 */
async function connected(ordered: boolean) {
  const [near, far] = InMemoryTransport.createLinkedPair();
  far.onmessage = (message: JSONRPCMessage) => {
    const m = message as { id?: number; method?: string; params?: Record<string, unknown> };
    if (m.method === "initialize") {
      void far.send({
        jsonrpc: "2.0",
        id: m.id!,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "burst", version: "1" },
        },
      });
    } else if (m.method === "tools/call") {
      const token = (m.params?._meta as { progressToken: number }).progressToken;
      // No await between them: they arrive as one read of a pipe would deliver them.
      for (const progress of [0, 50, 100]) {
        void far.send({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token, progress, total: 100 },
        });
      }
      void far.send({ jsonrpc: "2.0", id: m.id!, result: { content: [] } });
    }
  };
  const client = new Client({ name: "t", version: "1" });
  client.onerror = () => {};
  await client.connect(near);
  if (ordered) progressBeforeResponse(client, near);
  return client;
}

Deno.test("progressBeforeResponse() keeps the progress that arrives with a result, which the SDK alone drops", async () => {
  for (const ordered of [false, true]) {
    const client = await connected(ordered);
    const heard: number[] = [];
    await client.callTool({ name: "t", arguments: {} }, {
      onprogress: (p) => heard.push(p.progress),
    });
    await client.close();
    if (ordered) assert.deepEqual(heard, [0, 50, 100]);
    // The SDK's own path, which this module works around: if it stops dropping, the module can go.
    else assert.ok(heard.length < 3, `the SDK alone heard ${heard.join(", ")}`);
  }
});
