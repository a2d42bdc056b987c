import assert from "node:assert/strict";
import { ProtocolError } from "@modelcontextprotocol/server";
import { callTool, toolOf } from "./mcp_server.ts";
import { documentLocation, loadDocument } from "./document.ts";
import { operationsOf, parseMethods } from "./operations.ts";
import { servePetstore } from "../tests/fixtures/petstore.ts";
import { Redactor } from "../core/redact.ts";
import { declarationSecrets } from "../config/secrets.ts";

Deno.test("toolOf() annotates by method; callTool() answers a bad argument as an error result and an unknown tool as a protocol error", async () => {
  await using store = servePetstore();
  const loaded = await loadDocument(documentLocation(`${store.origin}/api/v3/openapi.json`, "/"));
  const ops = operationsOf(loaded, { methods: parseMethods("all") });
  const hints = (name: string) => {
    const { readOnlyHint, destructiveHint, idempotentHint } = toolOf(
      ops.find((o) => o.tool === name)!,
    ).annotations;
    return [readOnlyHint, destructiveHint, idempotentHint];
  };
  assert.deepEqual(hints("listPets"), [true, false, true]);
  assert.deepEqual(hints("addPet"), [false, false, false]);
  assert.deepEqual(hints("deletePet"), [false, true, true]);

  const bad = await callTool(ops, "getPetById", { pet: 1 }, {});
  assert.equal(bad.isError, true);
  assert.match((bad.content[0] as { text: string }).text, /takes no argument "pet"/);
  await assert.rejects(() => callTool(ops, "nope", {}, {}), ProtocolError);
  const ok = await callTool(ops, "getPetById", { petId: 1 }, {});
  assert.equal(ok.structuredContent?.name, "Rex");
});

Deno.test("callTool() with a declaration's redactor shows the key a service echoes as ${VAR}", async () => {
  await using store = servePetstore({ apiKey: "right-key-1" });
  const loaded = await loadDocument(documentLocation(`${store.origin}/api/v3/openapi.json`, "/"));
  const ops = operationsOf(loaded);
  const item = {
    name: "petstore",
    auth: { type: "header", name: "X-Api-Key", value: "${PET_KEY}" },
  };
  const env = { PET_KEY: "sekrit-123" };
  const options = {
    auth: { type: "header" as const, name: "X-Api-Key", value: env.PET_KEY },
    redactor: new Redactor(declarationSecrets([{ kind: "apis", index: 0, item }], env)),
  };
  const denied = await callTool(ops, "listPets", {}, options);
  assert.equal(denied.isError, true);
  const text = (denied.content[0] as { text: string }).text;
  assert.match(text, /HTTP 401/);
  assert.ok(!text.includes("sekrit-123") && !text.includes(btoa("sekrit-123")), text);
  assert.match(text, /wrong X-Api-Key \$\{PET_KEY\} \(\$\{PET_KEY\}\)/);
});
