import assert from "node:assert/strict";
import { EXEC_VALUE, execModule, isOneLineExpression } from "./exec_module.ts";
import { UsageError } from "../core/errors.ts";

/** Runs a module text the way the launcher would (default export called) and returns its value. */
async function valueOf(text: string): Promise<unknown> {
  const url = `data:application/typescript;base64,${btoa(unescape(encodeURIComponent(text)))}`;
  const mod = await import(url);
  return typeof mod.default === "function" ? await mod.default([]) : undefined;
}

Deno.test("isOneLineExpression() takes one-line expressions and leaves statements to the parser", () => {
  for (const code of ['fs.list_directory({ path: "." })', "1 + 2;", "await x", "types.a"]) {
    assert.ok(isOneLineExpression(code), code);
  }
  for (
    const code of [
      "const a = 1",
      "a; b",
      "a\nb",
      "return 1",
      "using x = y",
      "await using x = y",
      "  ",
      "if (a) b",
    ]
  ) {
    assert.ok(!isOneLineExpression(code), code);
  }
});

Deno.test("execModule() makes the last expression of a program its result", async (t) => {
  const cases: [string, string, unknown][] = [
    ["one expression", "6 * 7", 42],
    ["one expression with a trailing comment", "6 * 7 // the answer", 42],
    ["statements then an expression", "const a = 2;\nconst b = 3;\na * b", 6],
    ["TypeScript syntax", "const x: number = 1;\n({ x, y: [x] } satisfies object)", {
      x: 1,
      y: [1],
    }],
    ["an awaited last expression", "const p = Promise.resolve('t');\np", "t"],
    ["a multi-line expression", "[\n  1,\n  2,\n].length", 2],
    ["a trailing semicolon and comment", "let n = 1;\nn += 1;\nn; // done\n", 2],
    ["ending in a declaration", "const a = 1;\nfunction f() { return a; }", undefined],
    ["ending in a block", "let a = 0;\nfor (const i of [1, 2]) { a += i; }", undefined],
  ];
  for (const [name, code, expected] of cases) {
    await t.step(name, async () => {
      assert.deepEqual(await valueOf(await execModule(code)), expected);
    });
  }

  await t.step("a default export of the code's own is left alone", async () => {
    const code = "export default () => 1;\n2\n";
    assert.equal(await execModule(code), code);
  });

  await t.step("the rewritten statement keeps its line", async () => {
    const code = "const a = 1;\n\na\n";
    const lines = (await execModule(code)).split("\n");
    assert.match(lines[2], new RegExp(`^const ${EXEC_VALUE} = await \\(a\\);$`));
  });

  await t.step("code that does not parse is left for the runtime to report", async () => {
    const code = "const a = (1 +;\nconsole.log(a);\n";
    assert.equal(await execModule(code), code);
  });

  await t.step("a top-level return is refused with what to write instead", async () => {
    await assert.rejects(
      () => execModule("const a = 1;\n\nreturn a;"),
      (e) =>
        e instanceof UsageError && /top level \(line 3\)/.test(e.message) &&
        /end the code with the value itself/.test(e.message) &&
        /export default async function main/.test(e.message),
    );
    // Inside a function it is ordinary code.
    assert.equal(await valueOf(await execModule("function f() { return 3; }\nf()")), 3);
  });
});
