import assert from "node:assert/strict";
import { droppedKeys, type WireFailure, WireChecker } from "./wire_check.ts";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";

function checker(): { check: WireChecker; lines: WireFailure[] } {
  const lines: WireFailure[] = [];
  return { check: new WireChecker("s", (f) => lines.push(f)), lines };
}

const initialize = (revision: string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: revision,
    capabilities: {},
    clientInfo: { name: "mcpx", version: "0" },
  },
});

Deno.test("a sent frame with a key its revision does not define is a failure line", () => {
  const { check, lines } = checker();
  check.sent(initialize("2025-11-25"));
  check.received({
    jsonrpc: "2.0",
    id: 0,
    result: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      serverInfo: { name: "x", version: "1" },
    },
  });
  check.sent({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {} } });
  assert.equal(lines.length, 0, JSON.stringify(lines));
  check.sent({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "t", bogus: 1 } });
  assert.deepEqual(lines.length, 1);
  assert.deepEqual(lines[0].direction, "sent");
  assert.deepEqual(lines[0].revision, "2025-11-25");
  assert.deepEqual(lines[0].method, "tools/call");
  assert.ok(lines[0].error.includes("params.bogus"), lines[0].error);
});

Deno.test("a received frame is held to what the SDK accepts: unknown keys pass, bad shapes fail", () => {
  const { check, lines } = checker();
  check.sent(initialize("2025-11-25"));
  check.received({
    jsonrpc: "2.0",
    id: 0,
    result: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      serverInfo: { name: "x", version: "1" },
      extra: true,
    },
  } as JSONRPCMessage);
  assert.equal(lines.length, 0, JSON.stringify(lines));
  check.sent({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
  check.received({ jsonrpc: "2.0", id: 1, result: { tools: "none" } } as JSONRPCMessage);
  assert.deepEqual(lines.map((l) => [l.direction, l.method]), [["received", "tools/list"]]);
});

Deno.test("a sent method the revision lacks is a failure", () => {
  const { check, lines } = checker();
  check.sent(initialize("2025-11-25"));
  check.sent({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: {} });
  assert.deepEqual(lines.length, 1);
  assert.ok(lines[0].error.includes("not in revision 2025-11-25"), lines[0].error);
});

Deno.test("droppedKeys names the paths the schema's output lost", () => {
  assert.deepEqual(droppedKeys({ a: 1, b: { c: 2, d: [{ e: 1 }] } }, { a: 1, b: { d: [{}] } }), [
    "b.c",
    "b.d[0].e",
  ]);
});
