import assert from "node:assert/strict";
import { droppedKeys, WireChecker, type WireFailure } from "./wire_check.ts";
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

Deno.test("keys only 2026-07-28 defines fail in a 2025-11-25 frame mcpx sends", () => {
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
  check.received({ jsonrpc: "2.0", id: 7, method: "roots/list", params: {} });
  check.sent(
    { jsonrpc: "2.0", id: 7, result: { roots: [], resultType: "complete" } } as JSONRPCMessage,
  );
  check.sent({
    jsonrpc: "2.0",
    id: 8,
    method: "tools/list",
    params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
  });
  assert.deepEqual(lines.map((l) => [l.method, l.revision]), [
    ["roots/list", "2025-11-25"],
    ["tools/list", "2025-11-25"],
  ]);
  assert.ok(lines[0].error.includes("resultType"), lines[0].error);
  assert.ok(lines[1].error.includes("envelope"), lines[1].error);
});

Deno.test("a 2026-07-28 request without its _meta envelope fails", () => {
  const { check, lines } = checker();
  check.sent({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "mcpx", version: "0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
  assert.equal(lines.length, 0, JSON.stringify(lines));
  check.sent({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  assert.equal(lines.length, 1);
  assert.equal(lines[0].revision, "2026-07-28");
  assert.ok(lines[0].error.includes("_meta envelope"), lines[0].error);
});

Deno.test("a key only 2025-11-25 defines fails in a 2026-07-28 frame mcpx sends", () => {
  const { check, lines } = checker();
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "mcpx", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  // Task-augmented calls (`params.task`) left core in 2026-07-28.
  check.sent({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { _meta, name: "t", arguments: {}, task: { ttl: 1000 } },
  });
  assert.equal(lines.length, 1, JSON.stringify(lines));
  assert.ok(lines[0].error.includes("params.task"), lines[0].error);
});

Deno.test("an initialize refused, then server/discover: later frames are 2026-07-28's", () => {
  const { check, lines } = checker();
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "mcpx", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  check.sent(initialize("2025-11-25"));
  check.received({ jsonrpc: "2.0", id: 0, error: { code: -32602, message: "unsupported" } });
  check.sent({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta } });
  check.sent({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta } });
  assert.equal(lines.length, 0, JSON.stringify(lines));
  assert.equal(check.revision(), "2026-07-28");
});
