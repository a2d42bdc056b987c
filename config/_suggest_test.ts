import assert from "node:assert/strict";
import { didYouMean, nearest } from "./_suggest.ts";

Deno.test("nearest() behaviour", async (t) => {
  const keys = ["excludeTools", "tools", "namespace", "idleTimeout", "callTimeout", "max", "min"];
  const cases: [string, string | undefined][] = [
    ["excludeTool", "excludeTools"],
    ["exludeTools", "excludeTools"],
    ["ExcludeTools", "excludeTools"],
    ["namepsace", "namespace"],
    ["idle_timeout", "idleTimeout"],
    ["idletimeout", "idleTimeout"],
    ["maxx", "max"],
    ["zzzzzz", undefined],
    ["q", undefined],
  ];
  for (const [input, expected] of cases) {
    await t.step(`suggests ${expected} for ${input}`, () => {
      assert.equal(nearest(input, keys), expected);
    });
  }
  await t.step("didYouMean() formats the clause or nothing", () => {
    assert.equal(didYouMean("tols", keys), "; did you mean `tools`?");
    assert.equal(didYouMean("zzzzzz", keys), "");
  });
});

Deno.test("nearest() prefers the closer key over a contained one", () => {
  assert.equal(nearest("exludeTools", ["tools", "excludeTools"]), "excludeTools");
});
