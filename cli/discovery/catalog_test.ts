import assert from "node:assert/strict";
import { fsContext } from "./_fake_discovery.ts";
import * as catalogCommand from "./catalog.ts";

Deno.test("catalog handle() answers the block; text() ends it with one newline", async () => {
  const { ctx } = fsContext();
  const outcome = await catalogCommand.handle(ctx, {});
  assert.equal(outcome.kind, "ok");
  assert.match(outcome.value.text, /fs/);
  assert.equal(outcome.value.budget, 2000);
  assert.equal(catalogCommand.text({ ...outcome.value, text: "a" }), "a\n");
  assert.equal(catalogCommand.text({ ...outcome.value, text: "a\n" }), "a\n");
});
