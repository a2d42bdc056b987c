import assert from "node:assert/strict";
import * as openapiCommand from "./openapi.ts";
import { runHandler } from "../outcome_render.ts";
import type { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";
import { openApiDocument } from "../../ops/openapi.ts";

Deno.test("openapi handle() answers the document, printed as indented JSON with or without --json", async () => {
  const outcome = await openapiCommand.handle();
  assert.deepEqual(outcome, { kind: "ok", value: openApiDocument() });
  assert.equal("text" in openapiCommand, false);
  for (const json of [false, true]) {
    const io = memoryIo();
    const ctx = { io, env: {}, jsonFlag: json } as unknown as CliContext;
    assert.equal(await runHandler(ctx, openapiCommand, {}), 0);
    assert.equal(io.stdout, JSON.stringify(openApiDocument(), null, 2) + "\n");
  }
});
