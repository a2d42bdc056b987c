/**
 * A typo in a script's tool name gets the "did you mean" the CLI gives
 * (issue 24): `fx.ehco(…)` throws `UnknownToolError` naming `fx.echo`, under
 * deno, bun and node, where it failed as "fx.ehco is not a function".
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";
import { runtimeBinary } from "./_runtimes.ts";

Deno.test("a misspelt tool in a script names the nearest tool, as mcpx call does, under deno, bun and node", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  const cli = await w.mcpx(["call", "fx.ehco", '{"text":"hi"}']);
  assert.equal(cli.code, 1);
  assert.match(cli.stderr, /unknown tool "fx\.ehco"; did you mean fx\.echo\?/);
  for (const runtime of ["deno", "bun", "node"] as const) {
    await t.step(runtime, async () => {
      const binary = runtime === "deno" ? Deno.execPath() : await runtimeBinary(runtime);
      assert.ok(binary, `no ${runtime} could be found or installed (tests/_runtimes.ts)`);
      const env = { PATH: `${binary.slice(0, binary.lastIndexOf("/"))}:${w.env.PATH}` };
      const code = "try { await fx.ehco({ text: 'hi' }); } catch (e) {\n" +
        "  console.log(JSON.stringify([e.name, e.code, e.suggestions]));\n  throw e;\n}";
      const r = await w.mcpx(["exec", "--runtime", runtime, code], { env });
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout.trim()), ["UnknownToolError", "unknown-tool", [
        "fx.echo",
      ]]);
      assert.match(
        r.stderr,
        /error: UnknownToolError: unknown tool "fx\.ehco"; did you mean fx\.echo\? Run `mcpx search <words>`/,
      );
      assert.doesNotMatch(r.stderr, /is not a function/);
      // The script's own line, and no frame of the client's.
      assert.match(r.stderr, /^ {4}at <mcpx exec code>:1:\d+$/m);
      assert.doesNotMatch(r.stderr, /mcpx-client|namespace_object/);
    });
  }
});
