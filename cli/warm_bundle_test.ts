import assert from "node:assert/strict";
import {
  BUNDLE_PATH,
  bundledModules,
  bundleExternals,
  bundleProblems,
  computeExternalImports,
  readableWarmBundle,
  warmBundle,
} from "./warm_bundle.ts";
import { runsWarm, WARM_COMMANDS } from "./warm.ts";
import { COMMAND_MODULES } from "./commands.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("cli/mcpx.bundle.js is what `deno task gen` builds from the sources now", async () => {
  const written = await Deno.readTextFile(new URL(BUNDLE_PATH, ROOT));
  // Not assert.equal: a diff of two 450 KB texts helps no one.
  assert.ok(written === await warmBundle(ROOT), "cli/mcpx.bundle.js is stale: run `deno task gen`");
});

Deno.test("cli/mcpx.bundle.js imports nothing statically and no specifier literally", async () => {
  const shipped = await Deno.readTextFile(new URL(BUNDLE_PATH, ROOT));
  assert.deepEqual(bundleProblems(shipped), []);
  // The shipped bundle is minified; the readable build names each module.
  const text = await readableWarmBundle(ROOT);
  assert.deepEqual(bundleProblems(text), []);
  const modules = bundledModules(text);
  // The module comments the import.meta rule reads are there, so it cannot pass vacuously.
  assert.match(modules.get("core/root.ts") ?? "", /import\.meta\.url/);
  for (const name of Object.keys(WARM_COMMANDS)) assert.ok(modules.has(`cli/${name}.ts`), name);
  assert.ok(!modules.has("cli/main.ts") && !modules.has("cli/commands.ts"));
});

Deno.test("bundleProblems() names static imports, literal dynamic imports and import.meta outside cli/", () => {
  const cases: [string, string[]][] = [
    ['const a = await import(String("zod"));\n', []],
    ['import { z } from "zod";\n', ['a top-level static import of "zod"']],
    ['export { z } from "zod";\n', ['a top-level static import of "zod"']],
    ['export * from "./x.ts";\n', ['a top-level static import of "./x.ts"']],
    ['const f = () => import("node:fs");\n', ['a literal dynamic import of "\\"node:fs\\""']],
    ["const f = () => import(`node:fs`);\n", ['a literal dynamic import of "`node:fs`"']],
    ["const f = (x) => import(`node:${x}`);\n", []],
    ['// cli/x.ts\nconst u = new URL("./a.ts", import.meta.url);\n', []],
    ['// core/root.ts\nconst u = new URL("../", import.meta.url);\n', []],
    [
      '// scripts/x.ts\nconst u = new URL("./a.ts", import.meta.url);\n',
      ["scripts/x.ts uses import.meta; name checkout files from core/root.ts ROOT_URL"],
    ],
  ];
  for (const [text, problems] of cases) assert.deepEqual(bundleProblems(text), problems, text);
});

Deno.test("computeExternalImports() wraps literal specifiers and leaves strings alone", () => {
  const text = [
    'const a = () => import("node:fs");',
    "const b = () => import(`jsonc-parser`);",
    "const c = (x) => import(x);",
    'const d = "import(\\"zod\\")";',
  ].join("\n");
  assert.equal(
    computeExternalImports(text),
    [
      'const a = () => import(String("node:fs"));',
      "const b = () => import(String(`jsonc-parser`));",
      "const c = (x) => import(x);",
      'const d = "import(\\"zod\\")";',
    ].join("\n"),
  );
});

Deno.test("bundleExternals() keeps every import-mapped package and its subpaths outside", () => {
  assert.deepEqual(bundleExternals({ zod: "npm:zod@4" }), [
    "zod",
    "zod/*",
    "npm:*",
    "jsr:*",
    "node:*",
  ]);
});

Deno.test("runsWarm() keeps warm commands in the bundle and hands the others to the sources", () => {
  for (const name of Object.keys(WARM_COMMANDS)) assert.ok(COMMAND_MODULES[name], name);
  const cases: [string[], boolean][] = [
    [["ls"], true],
    [["--json", "call", "everything.echo", "{}"], true],
    [["--config", "x.json", "types", "everything"], true],
    [["run", "./s.ts", "trust"], true],
    [[], true],
    [["--version"], true],
    [["bogus"], true],
    [["trust"], false],
    [["help", "config"], false],
    [["--json", "stats", "calls"], false],
    [["daemon", "--mode", "auto"], false],
  ];
  for (const [argv, warm] of cases) assert.equal(runsWarm(argv), warm, argv.join(" "));
});
