/**
 * `mcpx exec` prints the value of the code's last expression, as a REPL or
 * `node -p` would, and answers a top-level `return` with what to write
 * instead (issue 8, "Scripts and exec").
 */

import assert from "node:assert/strict";
import { STACK_LINE, world } from "./_helpers.ts";

Deno.test("exec prints the value its last expression ends with", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });

  await t.step("several statements, then an expression", async () => {
    const r = await w.mcpx(["exec", "const a = 2;\nconst b: number = 3;\n({ sum: a + b })"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { sum: 5 });
  });

  await t.step("code on stdin, printing along the way", async () => {
    const r = await w.mcpx(["exec", "-"], {
      stdin: 'console.log("first");\nconst words = ["a", "b"];\nwords.join("+")\n',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "first\na+b\n");
  });

  await t.step("code ending in a statement prints only what it printed", async () => {
    const r = await w.mcpx(["exec", 'const a = 1;\nif (a) console.log("yes");']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "yes\n");
  });

  await t.step("a top-level return is refused before anything runs, with a hint", async () => {
    const r = await w.mcpx(["exec", 'Deno.writeTextFileSync("ran", "1");\nreturn 5;']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /cannot `return` at the top level \(line 2\)/);
    assert.match(r.stderr, /end the code with the value itself/);
    assert.doesNotMatch(r.stderr, STACK_LINE);
    assert.equal(await Deno.stat(`${w.dir}/ran`).catch(() => null), null, "nothing ran");
  });
});
