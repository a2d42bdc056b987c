import assert from "node:assert/strict";
import { ConfigError } from "../core/errors.ts";
import { expandString, expandVars, type Malformed } from "./expand.ts";
import { parseConfig } from "./parse.ts";

Deno.test("expandVars() behaviour", async (t) => {
  const env = { A: "1", EMPTY: "", PATH_X: "/bin" };
  // [input, value, missing, malformed]; a row without malformed has none.
  const cases: [string, string, string[], Malformed[]?][] = [
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
    // A name every object answers to is a variable like any other, never Object's function.
    ["${toString}", "${toString}", ["toString"]],
    ["${constructor:-x}", "x", []],
    ["${__proto__}", "${__proto__}", ["__proto__"]],
    ["$${A}", "${A}", []],
    ["\\${A}", "${A}", []],
    ["$A stays", "$A stays", []],
    ["${unterminated", "${unterminated", [], [{
      reference: "${unterminated",
      problem: "unterminated",
    }]],
    ["${}", "${}", [], [{ reference: "${}", problem: "empty" }]],
    ["a${:-x}b", "a${:-x}b", [], [{ reference: "${:-x}", problem: "empty" }]],
    ["${A ${A}", "${A 1", [], [{ reference: "${A ", problem: "unterminated" }]],
    ["$${B", "${B", []],
    ["\\${B", "${B", []],
    ["${PATH_X}/sub", "/bin/sub", []],
  ];
  for (const [input, value, missing, malformed = []] of cases) {
    await t.step(`expands ${JSON.stringify(input)}`, () => {
      const { used: _, ...got } = expandVars(input, env);
      assert.deepEqual(got, { value, missing, malformed });
    });
  }
});

Deno.test("expandVars() lists each substituted reference with the text put in its place", () => {
  const { used } = expandVars("Bearer ${T} ${B:-dflt} ${A:-x} ${U} $${T}", { T: "t0", A: "1" });
  assert.deepEqual(used, [
    { name: "T", value: "t0" },
    { name: "B", value: "dflt" },
    { name: "A", value: "1" },
  ]);
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

Deno.test("expandString() rejects an empty or unterminated ${ naming server, path and text", async (t) => {
  const context = { file: "/p/.mcp.json", server: "gh", path: "mcpServers.gh.args[0]" };
  const cases: [string, RegExp][] = [
    ["${}", /names no variable/],
    ["--token=${}", /names no variable/],
    ["${:-fallback}", /names no variable/],
    ["${HOME", /without a closing/],
    ["${HOME/.config", /without a closing/],
    ["${HOME ${USER}", /without a closing/],
  ];
  for (const [text, problem] of cases) {
    await t.step(JSON.stringify(text), () => {
      assert.throws(() => expandString(text, { HOME: "/h", USER: "u" }, context), (e: unknown) => {
        assert.ok(e instanceof ConfigError, String(e));
        assert.match(e.message, problem);
        for (const part of ["/p/.mcp.json", context.path, '"gh"', JSON.stringify(text)]) {
          assert.ok(e.message.includes(part), `${e.message} lacks ${part}`);
        }
        assert.ok(e.message.includes("write ${NAME}"), e.message);
        assert.ok(e.message.includes("$${"), e.message);
        return true;
      });
    });
  }
  await t.step("parseConfig() reports it at the JSON path of the server's string", () => {
    const text = `{ "mcpServers": { "api": { "url": "https://x.test/mcp", ` +
      `"headers": { "Authorization": "Bearer \${TOKEN" } } } }`;
    assert.throws(() => parseConfig(text, "/p/.mcp.json", { TOKEN: "t" }), (e: unknown) => {
      assert.ok(e instanceof ConfigError, String(e));
      assert.match(e.message, /mcpServers\.api\.headers\.Authorization: /);
      assert.match(
        e.message,
        /"\$\{TOKEN" has a \$\{ without a closing \} in "Bearer \$\{TOKEN" \(server "api"\)/,
      );
      return true;
    });
  });
});
