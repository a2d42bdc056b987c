import assert from "node:assert/strict";
import {
  type Bundle,
  bundleExternals,
  bundleProblems,
  computeExternalImports,
  computeStaticImports,
  DAEMON_BUNDLE,
  WARM_BUNDLE,
} from "./bundle.ts";

Deno.test("bundleProblems() names static imports, literal dynamic imports and import.meta outside the bundle's folder", () => {
  const cases: [string, Bundle, string[]][] = [
    ['const a = await import(String("zod"));\n', WARM_BUNDLE, []],
    ['import { z } from "zod";\n', WARM_BUNDLE, ['a top-level static import of "zod"']],
    ['export { z } from "zod";\n', WARM_BUNDLE, ['a top-level static import of "zod"']],
    ['export * from "./x.ts";\n', WARM_BUNDLE, ['a top-level static import of "./x.ts"']],
    [
      'const f = () => import("node:fs");\n',
      WARM_BUNDLE,
      ['a literal dynamic import of "\\"node:fs\\""'],
    ],
    [
      "const f = () => import(`node:fs`);\n",
      WARM_BUNDLE,
      ['a literal dynamic import of "`node:fs`"'],
    ],
    ["const f = (x) => import(`node:${x}`);\n", WARM_BUNDLE, []],
    ['// cli/x.ts\nconst u = new URL("./a.ts", import.meta.url);\n', WARM_BUNDLE, []],
    ['// core/root.ts\nconst u = new URL("../", import.meta.url);\n', WARM_BUNDLE, []],
    [
      '// scripts/x.ts\nconst u = new URL("./a.ts", import.meta.url);\n',
      WARM_BUNDLE,
      ["scripts/x.ts uses import.meta; name checkout files from core/root.ts ROOT_URL"],
    ],
    ["// daemon/main.ts\nif (import.meta.main) run();\n", DAEMON_BUNDLE, []],
    [
      "// cli/x.ts\nif (import.meta.main) run();\n",
      DAEMON_BUNDLE,
      ["cli/x.ts uses import.meta; name checkout files from core/root.ts ROOT_URL"],
    ],
  ];
  for (const [text, bundle, problems] of cases) {
    assert.deepEqual(bundleProblems(text, bundle), problems, text);
  }
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

Deno.test("computeStaticImports() moves each static import to the top as an awaited computed import", () => {
  const text = [
    "var a = 1;",
    'import { z } from "zod";',
    "var b = z;",
    'import d, { x as y, "k-v" as kv } from "pkg";',
    'import * as ns from "node:path";',
    'import e, * as all from "other";',
    'import "side-effect";',
    "export { a };",
  ].join("\n");
  assert.equal(
    computeStaticImports(text),
    [
      'const { z } = await import(String("zod"));',
      'const { default: d, x: y, "k-v": kv } = await import(String("pkg"));',
      'const ns = await import(String("node:path"));',
      'const all = await import(String("other")); const { default: e } = all;',
      'await import(String("side-effect"));',
      "var a = 1;",
      "",
      "var b = z;",
      "",
      "",
      "",
      "",
      "export { a };",
    ].join("\n"),
  );
  assert.deepEqual(bundleProblems(computeStaticImports(text)), []);
  assert.throws(() => computeStaticImports('export { z } from "zod";'), SyntaxError);
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
