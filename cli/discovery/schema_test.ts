import assert from "node:assert/strict";
import { runHandler } from "../outcome_render.ts";
import { fsContext } from "./_fake_discovery.ts";
import * as schemaCommand from "./schema.ts";

Deno.test("schema handle() notes a namespace left out; text() is the form's own text", async () => {
  const { ctx, io } = fsContext();
  const outcome = await schemaCommand.handle(ctx, { targets: [], format: "typescript" });
  assert.deepEqual(outcome.notes?.length, 1);
  assert.match(outcome.notes![0], /^empty left out: /);
  const typescript = outcome.value as { typescript: string };
  assert.equal(schemaCommand.text(typescript), typescript.typescript);
  assert.equal(
    await runHandler(ctx, schemaCommand, { targets: ["fs"], format: "json-schema" }, false),
    0,
  );
  // A JSON form prints its document, terminal or not.
  assert.deepEqual(
    JSON.parse(io.stdout),
    (await schemaCommand.handle(ctx, {
      targets: ["fs"],
      format: "json-schema",
    })).value,
  );
});
