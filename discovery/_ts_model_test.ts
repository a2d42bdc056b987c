import assert from "node:assert/strict";
import {
  commentLines,
  flat,
  parseDeclaration,
  parseType,
  printDeclaration,
  printFunction,
} from "./_ts_model.ts";

Deno.test("parseType() parses object types out of text and collapses whitespace", () => {
  const expr = parseType('({\n/** a } */\nq: "}  x"\n} | null)[]');
  assert.equal(expr.length, 3);
  assert.equal(expr[0], "(");
  assert.deepEqual(expr[1], { members: [{ doc: ["a }"], key: "q", type: ['"}  x"'] }] });
  assert.equal(expr[2], " | null)[]");
  assert.equal(flat(expr), '({ /** a } */ q: "}  x" } | null)[]');
});

Deno.test("commentLines() strips markers and outer blank lines", () => {
  assert.deepEqual(commentLines("/** one */"), ["one"]);
  assert.deepEqual(commentLines("/**\n * a\n *\n * @default 1\n */"), ["a", "", "@default 1"]);
});

Deno.test("parseDeclaration() reads what printDeclaration() writes, and the older layout", () => {
  const older =
    "interface Node {\n  /** the value */\n  value?: string;\n  children?: Node[];\n}\n" +
    "/**\n * Adds.\n * Second line.\n */\nfunction add(args: {\n  /**\n   * A number\n   *\n" +
    "   * @default 1\n   */\n  a?: number;\n}): Promise<{\n  sum: number;\n}>;";
  const decl = parseDeclaration(older);
  assert.equal(decl.fn, "add");
  assert.deepEqual(decl.doc, ["Adds.", "Second line."]);
  assert.equal(decl.named[0].name, "Node");
  const printed = printDeclaration(decl);
  assert.equal(
    printed,
    "interface Node { /** the value */ value?: string; children?: Node[] }\n" +
      "/**\n * Adds.\n * Second line.\n */\n" +
      "function add(args: {\n  /**\n   * A number\n   *\n   * @default 1\n   */\n  a?: number;\n" +
      "}): Promise<{ sum: number }>;",
  );
  assert.deepEqual(parseDeclaration(printed), decl);
});

Deno.test("parseDeclaration() refuses text that is not one tool's declaration", () => {
  assert.throws(() => parseDeclaration("export const x = 1;"), SyntaxError);
  assert.throws(() => parseDeclaration("function a(args: {}): string;"), SyntaxError);
  assert.throws(() => parseDeclaration("type A = 1;"), SyntaxError);
});

Deno.test("printFunction() keeps a short signature on one line and breaks a long one", async (t) => {
  const d = (args: string, result = "ToolResult") => ({
    doc: [],
    fn: "f",
    args: parseType(args),
    result: parseType(result),
  });
  await t.step("short: one line, parentheses around a whole union dropped", () => {
    assert.equal(
      printFunction(d('{ a: ("x" | "y"); b?: number }')),
      'function f(args: { a: "x" | "y"; b?: number }): Promise<ToolResult>;',
    );
  });
  await t.step("long arguments: one member a line, the result after them", () => {
    const long = `{ ${
      Array.from({ length: 8 }, (_, i) => `/** value ${i} */ v${i}: number`).join("; ")
    } }`;
    const text = printFunction(d(long, "{ ok: boolean }"));
    assert.ok(text.startsWith("function f(args: {\n  /** value 0 */\n  v0: number;\n"), text);
    assert.ok(text.endsWith("  v7: number;\n}): Promise<{ ok: boolean }>;"), text);
  });
  await t.step("a long result with short arguments keeps the arguments on the first line", () => {
    const result = `{ ${Array.from({ length: 8 }, (_, i) => `field${i}: string`).join("; ")} }`;
    const text = printFunction(d("{ path: string }", result));
    assert.ok(text.startsWith("function f(args: { path: string }): Promise<{\n  field0: string;"));
  });
});
