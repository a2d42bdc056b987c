import assert from "node:assert/strict";
import { Client, InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/client";
import { notificationsBeforeResponse } from "./notification_order.ts";

/**
 * A client connected to a scripted 2025-era server that answers `tools/call`
 * with three progress notifications, each followed by a log message, and its
 * result, in one burst; `heard` records what reached the client, in order.
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
          capabilities: { tools: {}, logging: {} },
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
        void far.send({
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level: "info", data: `at ${progress}` },
        });
      }
      void far.send({ jsonrpc: "2.0", id: m.id!, result: { content: [] } });
    }
  };
  const client = new Client({ name: "t", version: "1" });
  client.onerror = () => {};
  const heard: string[] = [];
  client.setNotificationHandler("notifications/message", (n) => {
    heard.push(`log ${n.params.data}`);
  });
  await client.connect(near);
  if (ordered) notificationsBeforeResponse(near);
  return { client, heard };
}

Deno.test("notificationsBeforeResponse() hands every notification read with a result to its handler first, in order, which the SDK alone does not", async () => {
  for (const ordered of [false, true]) {
    const { client, heard } = await connected(ordered);
    await client.callTool({ name: "t", arguments: {} }, {
      onprogress: (p) => heard.push(`progress ${p.progress}`),
    });
    const atResult = [...heard];
    await client.close();
    if (ordered) {
      assert.deepEqual(atResult, [
        "progress 0",
        "log at 0",
        "progress 50",
        "log at 50",
        "progress 100",
        "log at 100",
      ]);
    } else {
      // The SDK's own path, which this module works around: if it stops dropping, the module can go.
      const progress = atResult.filter((h) => h.startsWith("progress"));
      assert.ok(progress.length < 3, `the SDK alone heard ${atResult.join(", ")}`);
    }
  }
});
