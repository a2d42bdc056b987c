import assert from "node:assert/strict";
import * as apiCommand from "./api.ts";
import { runHandler } from "../outcome_render.ts";
import { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";
import { petstoreDocument, servePetstore } from "../../tests/fixtures/petstore.ts";

/** A real context in a fresh directory holding the petstore document as `petstore.json`. */
async function apiWorld() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-api-" }));
  await Deno.writeTextFile(`${root}/petstore.json`, JSON.stringify(petstoreDocument()));
  const io = memoryIo();
  const ctx = new CliContext({ io, env: { HOME: root }, cwd: root, flags: {} });
  return {
    ctx,
    io,
    root,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

const TOOLS = { action: "tools", rest: [] as string[], spec: "petstore.json" };

Deno.test("api tools handle() answers the document; text() tables it, the base URL's problem on stderr", async () => {
  await using w = await apiWorld();
  const outcome = await apiCommand.handle(w.ctx, TOOLS);
  assert.equal(outcome.kind, "ok");
  const value = (outcome as { value: apiCommand.ApiToolsOutput }).value;
  assert.equal(value.title, "Petstore");
  assert.deepEqual(value.tools.map((t) => t.name), ["listPets", "getPetById", "getFile"]);
  // A relative server URL in a file has no origin to resolve against: said as `problem`.
  assert.equal(typeof value.problem, "string");
  assert.equal(value.baseUrl, undefined);
  assert.equal(w.io.stdout + w.io.stderr, "", "the handler printed");
  assert.equal(await runHandler(w.ctx, apiCommand, TOOLS, false), 0);
  assert.match(w.io.stdout, /^TOOL +METHOD +PATH +DESCRIPTION\nlistPets +GET +\/pets +/);
  assert.equal(w.io.stderr, `note: ${value.problem}\n`);
});

Deno.test("api call handle() answers failed for an HTTP error; text() puts it on stderr", async () => {
  await using store = servePetstore({ apiKey: "k-1" });
  await using w = await apiWorld();
  const input = {
    action: "call",
    rest: ["getPetById", '{"petId":999}'],
    spec: `${store.origin}/api/v3/openapi.yaml`,
    header: ["X-Api-Key: k-1"],
  };
  const outcome = await apiCommand.handle(w.ctx, input);
  assert.equal(outcome.kind, "failed");
  assert.equal(await runHandler(w.ctx, apiCommand, input, false), 1);
  assert.equal(w.io.stdout, "");
  assert.match(w.io.stderr, /^getPetById returned an error:\n/);
});
