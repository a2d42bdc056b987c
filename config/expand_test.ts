import assert from "node:assert/strict";
import { ConfigError } from "../errors.ts";
import { expandString, expandVars } from "./expand.ts";

Deno.test("expandVars() behaviour", async (t) => {
  const env = { A: "1", EMPTY: "", PATH_X: "/bin" };
  const cases: [string, string, string[]][] = [
    ["plain", "plain", []],
    ["${A}", "1", []],
    ["x${A}y${A}", "x1y1", []],
    ["${EMPTY}", "", []],
    ["${B:-two}", "two", []],
    ["${EMPTY:-fallback}", "fallback", []],
    ["${A:-unused}", "1", []],
    ["${B:-}", "", []],
    ["${B}", "${B}", ["B"]],
    ["${B}${C}", "${B}${C}", ["B", "C"]],
    ["$${A}", "${A}", []],
    ["\\${A}", "${A}", []],
    ["$A stays", "$A stays", []],
    ["${unterminated", "${unterminated", []],
    ["${PATH_X}/sub", "/bin/sub", []],
  ];
  for (const [input, value, missing] of cases) {
    await t.step(`expands ${JSON.stringify(input)}`, () => {
      assert.deepEqual(expandVars(input, env), { value, missing });
    });
  }
});

Deno.test("expandString() behaviour", async (t) => {
  await t.step("throws a ConfigError naming the variable, server and JSON path", () => {
    assert.throws(
      () =>
        expandString("${GH_TOKEN}", {}, {
          file: "/p/.mcp.json",
          server: "gh",
          path: "mcpServers.gh.env.TOKEN",
        }),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        for (const part of ["/p/.mcp.json", "mcpServers.gh.env.TOKEN", "GH_TOKEN", '"gh"']) {
          assert.ok(e.message.includes(part), `${e.message} lacks ${part}`);
        }
        assert.match(e.message, /export GH_TOKEN/);
        assert.match(e.message, /\$\{GH_TOKEN:-default\}/);
        return true;
      },
    );
  });
  await t.step("returns the expansion when every variable is set", () => {
    assert.equal(expandString("${A}", { A: "x" }, { file: null, server: "s", path: "p" }), "x");
  });
});
