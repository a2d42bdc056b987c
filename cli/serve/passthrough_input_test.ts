import assert from "node:assert/strict";
import type { ProtocolError } from "@modelcontextprotocol/server";
import { ASKED, passOn, roundCodec, roundOf } from "./passthrough_input.ts";

const context = (state: unknown, inputResponses?: Record<string, unknown>) =>
  ({ mcpReq: { requestState: () => Promise.resolve(state), inputResponses } }) as never;

Deno.test("passOn() keeps the upstream's keys and seals its requestState in the passthrough's", async () => {
  const codec = roundCodec();
  const out = await passOn({
    resultType: "input_required",
    inputRequests: { client_roots: { method: "roots/list" } },
    requestState: "upstream-state",
  }, codec) as { inputRequests: Record<string, unknown>; requestState: string };
  assert.deepEqual(Object.keys(out.inputRequests), ["client_roots"]);
  assert.notEqual(out.requestState, "upstream-state");
  assert.deepEqual(await codec.verify(out.requestState, {} as never), {
    upstream: "upstream-state",
  });
});

Deno.test("passOn() puts a stored question under its one key, and passes a result unchanged", async () => {
  const codec = roundCodec();
  const asked = await passOn({
    question: {
      id: "elc-1",
      kind: "elicitation",
      message: "Name?",
      request: { message: "Name?", requestedSchema: { type: "object", properties: {} } },
    },
  }, codec) as { inputRequests: Record<string, unknown>; requestState: string };
  assert.deepEqual(Object.keys(asked.inputRequests), [ASKED]);
  assert.deepEqual(await codec.verify(asked.requestState, {} as never), { question: "elc-1" });
  const result = { content: [{ type: "text", text: "hi" }] };
  assert.equal(await passOn(result, codec), result);
});

Deno.test("passOn() throws the upstream's error with its code; -32002 as -32602 with the URI", async () => {
  const codec = roundCodec();
  await assert.rejects(
    passOn({ upstreamError: { code: -32021, message: "no sampling" } }, codec),
    (e: ProtocolError) => e.code === -32021,
  );
  await assert.rejects(
    passOn({ upstreamError: { code: -32002, message: "none" } }, codec, { uri: "test://x" }),
    (e: ProtocolError) => e.code === -32602 && (e.data as { uri?: string }).uri === "test://x",
  );
});

Deno.test("roundOf() tells a stored question's round from the upstream's", async () => {
  const question = await roundOf(
    context({ question: "elc-2" }, { [ASKED]: { action: "decline" } }),
  );
  assert.ok("question" in question && question.question.id === "elc-2");
  const relay = await roundOf(context({ upstream: "s" }, { a: { roots: [] } }));
  assert.deepEqual(relay, { relay: { inputResponses: { a: { roots: [] } }, requestState: "s" } });
  assert.deepEqual(await roundOf(context(undefined)), { relay: {} });
});
