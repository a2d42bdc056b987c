import assert from "node:assert/strict";
import { syntaxLocation } from "./syntax_location.ts";

function withStack(name: string, stack: string): Error {
  const err = name === "SyntaxError" ? new SyntaxError("x") : new Error("x");
  Object.defineProperty(err, "stack", { value: stack });
  return err;
}

Deno.test("syntaxLocation() reads the place bun and node give a syntax error", async (t) => {
  await t.step("bun: a BuildMessage's position", () => {
    const message = {
      name: "BuildMessage",
      message: "Unexpected ;",
      position: { file: "/w/a.ts", line: 2, column: 15, lineText: "const b = (a +;", length: 1 },
    };
    assert.deepEqual(syntaxLocation(message), {
      file: "/w/a.ts",
      line: 2,
      column: 15,
      lineText: "const b = (a +;",
    });
  });

  await t.step("node: the excerpt and caret before the headline", () => {
    const err = withStack(
      "SyntaxError",
      "/w/a.ts:2\nconst a = 1;\nconst b = (a +;\n              ^\nconsole.log(b);\n\n" +
        "SyntaxError [ERR_INVALID_TYPESCRIPT_SYNTAX]: Expression expected\n    at parseTypeScript (node:internal/modules/typescript:67:36)",
    );
    assert.deepEqual(syntaxLocation(err), {
      file: "/w/a.ts",
      line: 2,
      column: 15,
      lineText: "const b = (a +;",
    });
  });

  await t.step("node at the end of a file: the line, no column", () => {
    const err = withStack(
      "SyntaxError",
      "/w/a.ts:2\na +\n\nSyntaxError [ERR_INVALID_TYPESCRIPT_SYNTAX]: Expression expected",
    );
    assert.deepEqual(syntaxLocation(err), { file: "/w/a.ts", line: 2, lineText: "a +" });
  });

  await t.step("no place: node's compile errors, errors at run time, deno's, non-errors", () => {
    const cases: unknown[] = [
      withStack(
        "SyntaxError",
        "SyntaxError: Unexpected token ';'\n    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)",
      ),
      withStack(
        "SyntaxError",
        "SyntaxError: Unexpected token } in JSON\n    at JSON.parse (<anonymous>)",
      ),
      withStack("Error", "/w/a.ts:2\nx\n^\n\nError: not a syntax error"),
      withStack(
        "SyntaxError",
        "SyntaxError: Expression expected\n  |\n2 | a +\n  |    ~\n    at file:///w/a.ts:2:4",
      ),
      "SyntaxError",
      null,
    ];
    for (const value of cases) {
      assert.equal(syntaxLocation(value), null, String((value as Error)?.stack ?? value));
    }
  });
});
