import assert from "node:assert/strict";
import * as wordsCommand from "./completion_words.ts";
import { runHandler } from "../outcome_render.ts";
import type { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";
import { renderSchema } from "../../config/setting_schema.ts";

Deno.test("completion-words handle() answers { words }; text() is one a line, nothing for none", async () => {
  const io = memoryIo();
  const ctx = {
    io,
    env: {},
    jsonFlag: false,
    json: () => Promise.resolve(true),
  } as unknown as CliContext;
  const outcome = await wordsCommand.handle(ctx, { kind: "setting" });
  const names = renderSchema().map((s) => s.name);
  assert.deepEqual(outcome.value, { words: names });
  assert.equal(wordsCommand.text({ words: [] }), "");
  // output.json from the environment does not change what a completion script reads.
  await runHandler(ctx, wordsCommand, { kind: "setting" });
  assert.equal(io.stdout, names.join("\n") + "\n");
});

Deno.test("completion-words --json prints { words } on one line", async () => {
  const io = memoryIo();
  const ctx = { io, env: {}, jsonFlag: true } as unknown as CliContext;
  await runHandler(ctx, wordsCommand, { kind: "setting" });
  assert.equal(io.stdout, JSON.stringify({ words: renderSchema().map((s) => s.name) }) + "\n");
});
