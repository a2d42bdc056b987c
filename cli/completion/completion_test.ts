import assert from "node:assert/strict";
import * as completionCommand from "./completion.ts";
import { runHandler } from "../outcome_render.ts";
import type { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";

/** A context whose `--json` flag is `flag` and whose output mode otherwise says JSON. */
function context(flag: boolean) {
  const io = memoryIo();
  const ctx = {
    io,
    env: {},
    jsonFlag: flag,
    json: () => Promise.resolve(true),
  } as unknown as CliContext;
  return { ctx, io };
}

Deno.test("completion handle() answers { shell, script }; text() is the script itself", async () => {
  const outcome = await completionCommand.handle(context(false).ctx, { shell: "bash" });
  assert.equal(outcome.kind, "ok");
  assert.equal(outcome.value.shell, "bash");
  assert.equal(outcome.value.script, await completionCommand.completionScript("bash"));
  assert.equal(completionCommand.text(outcome.value), outcome.value.script);
});

Deno.test("completion prints the script unless --json itself is given, then one JSON line", async () => {
  // output.json from the environment does not make a sourced script JSON.
  const plain = context(false);
  assert.equal(await runHandler(plain.ctx, completionCommand, { shell: "fish" }), 0);
  const script = await completionCommand.completionScript("fish");
  assert.equal(plain.io.stdout, script);
  const json = context(true);
  await runHandler(json.ctx, completionCommand, { shell: "fish" });
  assert.equal(json.io.stdout, JSON.stringify({ shell: "fish", script }) + "\n");
});
