import { deepEqual, equal } from "node:assert/strict";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { defaultResultType, resultTypeDefaulted } from "./result_type.ts";

Deno.test("defaultResultType() completes a modern result that lacks resultType, and nothing else", () => {
  const frame = (result: unknown) => ({ jsonrpc: "2.0", id: 1, result }) as JSONRPCMessage;
  const bare = frame({ content: [] });
  equal(defaultResultType(bare, "2026-07-28"), true);
  deepEqual((bare as { result: unknown }).result, { content: [], resultType: "complete" });
  // A legacy connection's results have no resultType to default.
  equal(defaultResultType(frame({ content: [] }), "2025-11-25"), false);
  equal(defaultResultType(frame({ content: [] }), undefined), false);
  // An input_required result without its discriminator is not made complete.
  equal(defaultResultType(frame({ inputRequests: {} }), "2026-07-28"), false);
  equal(defaultResultType(frame({ resultType: "input_required" }), "2026-07-28"), false);
  // Requests and notifications have no result.
  equal(defaultResultType({ jsonrpc: "2.0", method: "x" } as JSONRPCMessage, "2026-07-28"), false);
});

Deno.test("resultTypeDefaulted() applies the default once the SDK sets a modern revision", () => {
  const transport = {
    start: () => Promise.resolve(),
    send: () => Promise.resolve(),
    close: () => Promise.resolve(),
  } as Transport;
  resultTypeDefaulted(transport);
  const seen: JSONRPCMessage[] = [];
  transport.onmessage = (m) => void seen.push(m);
  transport.setProtocolVersion!("2026-07-28");
  transport.onmessage!({ jsonrpc: "2.0", id: 2, result: {} } as JSONRPCMessage);
  deepEqual((seen[0] as { result: unknown }).result, { resultType: "complete" });
});
