import { deepStrictEqual, equal } from "node:assert/strict";
import { firstCommentLine, listScripts } from "./list.ts";

Deno.test("firstCommentLine() finds the first comment's first line", () => {
  const cases: [string, string][] = [
    ["// Take a screenshot\nawait x();", "Take a screenshot"],
    ["#!/usr/bin/env -S mcpx run\n\n// After the shebang\n", "After the shebang"],
    ["/* Block comment */\nx()", "Block comment"],
    ["/**\n * JSDoc summary line\n * more\n * @module\n */", "JSDoc summary line"],
    ["/**\n * @module\n */\n// then this", "then this"],
    [
      '// deno-lint-ignore-file no-console\n// @ts-nocheck\n/// <reference lib="dom" />\n// Real',
      "Real",
    ],
    ["//// Many slashes", "Many slashes"],
    ["import x from './y.ts';\n// too late", ""],
    ["", ""],
    ["/* never closed", "never closed"],
  ];
  for (const [source, want] of cases) equal(firstCommentLine(source), want, JSON.stringify(source));
});

Deno.test("listScripts() marks a farther script of the same name as shadowed by the nearer", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-list-" }));
  try {
    const near = `${root}/p/sub/.mcpx/scripts`;
    const far = `${root}/p/.mcpx/scripts`;
    await Deno.mkdir(near, { recursive: true });
    await Deno.mkdir(far, { recursive: true });
    await Deno.writeTextFile(`${near}/deploy.ts`, "// Deploy from here\n");
    await Deno.writeTextFile(`${far}/deploy.ts`, "// Deploy from the parent\n");
    await Deno.writeTextFile(`${far}/audit.js`, "/** Audit things */\n");
    await Deno.writeTextFile(`${far}/twin.ts`, "// twin ts\n");
    await Deno.writeTextFile(`${far}/twin.js`, "// twin js\n");
    await Deno.writeTextFile(`${far}/mcpx-client.ts`, "// generated\n");
    deepStrictEqual(await listScripts([near, `${root}/missing`, far]), [
      { name: "audit", description: "Audit things", path: `${far}/audit.js` },
      { name: "deploy", description: "Deploy from here", path: `${near}/deploy.ts` },
      {
        name: "deploy",
        description: "Deploy from the parent",
        path: `${far}/deploy.ts`,
        shadowedBy: `${near}/deploy.ts`,
      },
      {
        name: "twin",
        description: "twin ts",
        path: `${far}/twin.ts`,
        conflictsWith: `${far}/twin.js`,
      },
      {
        name: "twin",
        description: "twin js",
        path: `${far}/twin.js`,
        conflictsWith: `${far}/twin.ts`,
      },
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("listScripts() of places that do not exist is empty", async () => {
  deepStrictEqual(await listScripts(["/nonexistent/mcpx-test/a", "/nonexistent/b.ts"]), []);
});
