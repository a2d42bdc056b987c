import assert from "node:assert/strict";
import { memoryIo } from "../../core/io.ts";
import { CliContext } from "../context.ts";
import * as scriptsCommand from "./scripts.ts";
import type { ScriptsOutput } from "../../ops/scripts.ts";

Deno.test("scripts handle() answers the scripts found; text() says where a first one goes", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-scripts-" }));
  try {
    await Deno.mkdir(`${dir}/.mcpx/scripts`, { recursive: true });
    await Deno.writeTextFile(`${dir}/.mcpx/scripts/hello.ts`, "/** Says hello. */\nexport {};\n");
    const ctx = new CliContext({ io: memoryIo(), env: { HOME: dir }, cwd: dir, flags: {} });
    const outcome = await scriptsCommand.handle(ctx, {});
    assert.equal(outcome.kind, "ok");
    assert.deepEqual(outcome.value.scripts.map((s) => s.name), ["hello"]);
    const view = { input: {}, columns: 120, kind: "ok" as const, extra: outcome.extra };
    assert.match(scriptsCommand.text(outcome.value, view), /^NAME\s+DESCRIPTION\s+PATH\nhello\s/);
    assert.equal(
      scriptsCommand.text({ dirs: [], scripts: [] }, view),
      `No scripts found. Put one in ${dir}/.mcpx/scripts/<name>.ts (this directory and below) ` +
        `or ~/.config/mcpx/scripts/<name>.ts (everywhere).\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scripts text() explains (shadowed) and (conflict) below the table", () => {
  const script = { name: "a", description: "", path: "/p/a.ts" };
  const output = {
    dirs: [],
    scripts: [
      { ...script, shadowedBy: "/q/a.ts" },
      { ...script, name: "b", conflictsWith: "/p/b.js" },
    ],
  } as unknown as ScriptsOutput;
  const text = scriptsCommand.text(output, { input: {}, columns: 120, kind: "ok", extra: {} });
  assert.match(text, /^a \(shadowed\)/m);
  assert.ok(
    text.endsWith(
      "\n(shadowed): a nearer script of the same name runs instead.\n" +
        "(conflict): b.ts and b.js sit side by side; `mcpx run b` refuses both until one is " +
        "removed.\n",
    ),
    text,
  );
});
