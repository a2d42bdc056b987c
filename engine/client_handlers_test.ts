import assert from "node:assert/strict";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import {
  clientCapabilities,
  installClientHandlers,
  NO_MODEL_MESSAGE,
  SAMPLING_REFUSED,
  type ServerAsked,
} from "./client_handlers.ts";

const ANY = z.object({}).passthrough();

/** A connected SDK server and an mcpx-equipped client with `roots`; dispose to close both. */
async function pair(roots: string[] | undefined) {
  const asked: ServerAsked[] = [];
  const client = installClientHandlers(
    new Client({ name: "mcpx", version: "0" }, { capabilities: clientCapabilities(roots) }),
    roots,
    (q) => asked.push(q),
  );
  const server = new McpServer({ name: "s", version: "0" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  const ask = (method: string, params: Record<string, unknown> = {}) =>
    server.server.request({ method, params } as never, ANY as never);
  return {
    asked,
    ask,
    seen: () => server.server.getClientCapabilities(),
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
    },
  };
}

Deno.test("installClientHandlers() answers roots/list with file URIs when roots are configured", async () => {
  await using p = await pair(["/home/me/my project", "/srv"]);
  assert.deepEqual(p.seen(), { roots: {} }, "roots declared, without listChanged");
  assert.deepEqual(await p.ask("roots/list"), {
    roots: [
      { uri: "file:///home/me/my%20project", name: "my project" },
      { uri: "file:///srv", name: "srv" },
    ],
  });
  assert.deepEqual(p.asked, [{ method: "roots/list", answer: "roots", roots: 2 }]);
});

Deno.test("installClientHandlers() declares nothing and refuses roots/list without roots", async () => {
  await using p = await pair(undefined);
  assert.deepEqual(p.seen(), {});
  await assert.rejects(p.ask("roots/list"), (e: { code?: number }) => e.code === -32601);
});

Deno.test("installClientHandlers() cancels elicitation and refuses sampling, saying why", async () => {
  await using p = await pair(undefined);
  assert.deepEqual(
    await p.ask("elicitation/create", {
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    }),
    { action: "cancel" },
  );
  await assert.rejects(
    p.ask("sampling/createMessage", {
      messages: [{ role: "user", content: { type: "text", text: "Summarise this" } }],
      maxTokens: 10,
    }),
    (e: { code?: number; message?: string }) =>
      e.code === SAMPLING_REFUSED && e.message!.includes(NO_MODEL_MESSAGE),
  );
  assert.deepEqual(p.asked, [
    { method: "elicitation/create", answer: "cancel", message: "Your name?" },
    { method: "sampling/createMessage", answer: "no-model", message: "Summarise this" },
  ]);
});
