/**
 * A script that does not parse is reported with the runtime's place and the
 * offending line under deno, bun and node alike (issue 8, "Scripts and
 * exec"): `file:line:col` and an excerpt, not bun's bare `BuildMessage` or
 * node's own loader frames.
 */

import assert from "node:assert/strict";
import { world } from "./_helpers.ts";
import { runtimeBinary } from "./_runtimes.ts";

/** A syntax error every parser finds (node's type stripping included). */
const BROKEN = "const a = 1;\nconst b = (a +;\nconsole.log(b);\n";
/** A module that parses but that JavaScript refuses: V8 compiles it, not node's type stripping. */
const REDECLARED = "export const y = 1;\nlet x = 1;\nlet x = 2;\n";
/** Two parse errors on line 3: bun reports both at once, as an AggregateError (issue 24). */
const TWICE = "const x = 1;\n// two\nif (x { console.log(x) }\n";

for (const runtime of ["deno", "bun", "node"] as const) {
  Deno.test(`a syntax error under ${runtime} keeps its place and excerpt`, async () => {
    const binary = runtime === "deno" ? Deno.execPath() : await runtimeBinary(runtime);
    assert.ok(binary, `no ${runtime} could be found or installed (tests/_runtimes.ts)`);
    await using w = await world();
    await w.writeConfig({ mcpServers: {} });
    await Deno.writeTextFile(`${w.dir}/broken.ts`, BROKEN);
    await Deno.writeTextFile(`${w.dir}/redeclared.mjs`, REDECLARED);
    await Deno.writeTextFile(`${w.dir}/twice.ts`, TWICE);
    const dir = binary.slice(0, binary.lastIndexOf("/"));
    const env = { PATH: `${dir}:${w.env.PATH}` };
    const cases = [
      { file: "broken.ts", place: /broken\.ts:2:15\b/, line: "const b = (a +;" },
      // Deno names the place of this one without quoting the line.
      {
        file: "redeclared.mjs",
        place: /redeclared\.mjs:3\b/,
        line: runtime === "deno" ? "" : "let x = 2;",
      },
      { file: "twice.ts", place: /twice\.ts:3:7\b/, line: "if (x { console.log(x) }" },
    ];
    for (const { file, place, line } of cases) {
      const r = await w.mcpx(["run", "--runtime", runtime, `./${file}`], { env });
      const what = `${runtime} ${file}:\n${r.stderr}`;
      assert.equal(r.code, 1, what);
      assert.match(r.stderr, /SyntaxError/, what);
      assert.match(r.stderr, place, what);
      assert.ok(r.stderr.includes(line), what);
      assert.doesNotMatch(r.stderr, /BuildMessage|AggregateError|node:internal/, what);
      // Bun's second error on the line keeps its own place too.
      if (runtime === "bun" && file === "twice.ts") {
        assert.match(r.stderr, /twice\.ts:3:24\b/, what);
      }
    }
    // exec's code is named as such, and keeps the place of its own line.
    const r = await w.mcpx(["exec", "--runtime", runtime, "const a = 1;\nconst b = (a +;"], {
      env,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /<mcpx exec code>:2\b/, `${runtime} exec:\n${r.stderr}`);
  });
}
