import assert from "node:assert/strict";
import { trustProject } from "./_trust_project.ts";
import * as trustCommand from "./trust.ts";
import { runHandler } from "../outcome_render.ts";

Deno.test("trust handle() records the file and answers what its server runs; text() says so", async () => {
  await using p = await trustProject();
  const outcome = await trustCommand.handle(p.ctx, {});
  assert.equal(outcome.kind, "ok");
  const value = outcome.value as Extract<typeof outcome.value, { realPath: string }>;
  assert.deepEqual(
    [value.file, value.recorded, value.servers.map((s) => s.name), value.declared],
    [p.file, true, ["fs"], []],
  );
  assert.match(value.servers[0].runs, /fs-server --root \./);
  assert.equal(p.io.stdout + p.io.stderr, "", "the handler prints nothing");
  const text = trustCommand.text(value, {
    input: {},
    columns: 120,
    kind: "ok",
    extra: outcome.extra,
  });
  assert.equal(
    text,
    `trusted ${p.file}: mcpx may start its server as written now:\n  fs  ${
      value.servers[0].runs
    }\n` +
      "An edit that changes what a server runs (command, args, env, cwd, url, headers) asks " +
      "again; `mcpx untrust` takes it back.\n",
  );
});

Deno.test("trust --list answers every trusted file; runHandler() prints its document or table", async () => {
  await using p = await trustProject();
  await trustCommand.handle(p.ctx, {});
  const listed = await trustCommand.handle(p.ctx, { list: true });
  const value = listed.value as Extract<typeof listed.value, { files: unknown }>;
  assert.deepEqual(value.files.map((f) => [f.file, f.servers, f.state]), [
    [p.file, ["fs"], "current"],
  ]);
  assert.deepEqual(value.problems, []);
  assert.equal(await runHandler(p.ctx, trustCommand, { list: true }, true), 0);
  assert.equal(p.io.stdout, JSON.stringify(value, null, 2) + "\n");
  p.io.stdout = "";
  await runHandler(p.ctx, trustCommand, { list: true }, false);
  assert.match(
    p.io.stdout,
    /^FILE +SERVERS +TRUSTED +STATE\n.*\.mcp\.json +1 +\d{4}-\d\d-\d\d \d\d:\d\d +current\n$/,
  );
});
