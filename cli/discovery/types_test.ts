import assert from "node:assert/strict";
import { runHandler } from "../outcome_render.ts";
import { fsContext } from "./_fake_discovery.ts";
import * as typesCommand from "./types.ts";

Deno.test("types handle() answers the schemas and declarations; text() the .d.ts", async () => {
  const { ctx } = fsContext();
  const outcome = await typesCommand.handle(ctx, { targets: ["fs.read_file"] });
  assert.equal(outcome.kind, "ok");
  const [tool] = outcome.value.namespaces[0].tools;
  assert.equal(tool.function, "fs.read_file");
  assert.match(tool.declaration ?? "", /function read_file\(args: \{ path\?: string \}\)/);
  const text = typesCommand.text(outcome.value, {
    input: {},
    columns: 120,
    kind: "ok",
    extra: outcome.extra,
  });
  assert.match(text, /^type ToolResult = unknown;/);
  assert.match(text, /declare namespace fs \{\n(.|\n)*function read_file/);
  assert.ok(text.endsWith("}\n"), text);
});

Deno.test("types through runHandler: the text, or the document under --json", async () => {
  const text = fsContext();
  assert.equal(await runHandler(text.ctx, typesCommand, { targets: ["fs"] }, false), 0);
  assert.match(text.io.stdout, /declare namespace fs/);
  const json = fsContext();
  assert.equal(await runHandler(json.ctx, typesCommand, { targets: ["fs"] }, true), 0);
  assert.equal(JSON.parse(json.io.stdout).namespaces[0].namespace, "fs");
  assert.equal(json.io.stderr, "");
});
