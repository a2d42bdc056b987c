import assert from "node:assert/strict";
import { GRAPH_SCHEMA, toolEntry } from "./_fixtures.ts";
import { buildCatalog } from "./catalog.ts";
import { countTokens } from "./tokens.ts";
import type { NamespaceEntry } from "./types.ts";

/** A namespace whose tools carry ready declarations of the given argument lengths. */
function namespace(
  name: string,
  tools: [string, number, string[]?][],
  description = "",
): NamespaceEntry {
  return {
    namespace: name,
    server: name,
    description,
    tools: tools.map(([fn, size, tags]) =>
      toolEntry(name, fn, "", {
        tags: tags ?? [],
        declaration: `function ${fn}(args: { ${"x".repeat(size)}: string }): Promise<ToolResult>;`,
      })
    ),
  };
}

const shownFns = (text: string) => [...text.matchAll(/function (\w+)\(/g)].map((m) => m[1]);

Deno.test("buildCatalog() shows everything when the budget allows", async () => {
  const nss = [
    namespace("browser", [["click", 5], ["navigate", 10]], "drive a headless Chrome"),
    namespace("fs", [["read_file", 4]], "files"),
  ];
  const catalog = await buildCatalog(nss, { budget: 10_000 });
  assert.equal(catalog.shown, 3);
  assert.equal(catalog.total, 3);
  assert.equal(catalog.tokens, countTokens(catalog.text));
  const lines = catalog.text.split("\n");
  assert.match(lines[0], /^\/\/ mcpx catalog: 2 namespaces, 3 tools\./);
  assert.equal(lines[1], "//   browser (2) drive a headless Chrome");
  assert.equal(lines[2], "//   fs (1) files");
  assert.ok(catalog.text.includes("declare namespace browser {\n  function click("));
  assert.ok(catalog.text.endsWith("// All 3 signatures shown.\n"));
});

Deno.test("buildCatalog() picks round-robin, shortest first, within the budget", async () => {
  const order: Record<string, string[]> = {
    a: ["a_short", "a_mid", "a_long"],
    b: ["b_short", "b_mid", "b_long"],
  };
  const nss = [
    namespace("a", [["a_long", 300], ["a_short", 10], ["a_mid", 100]]),
    namespace("b", [["b_long", 300], ["b_short", 12], ["b_mid", 90]]),
  ];
  let previous = 0;
  for (let budget = 20; budget <= 600; budget += 5) {
    const catalog = await buildCatalog(nss, { budget });
    assert.ok(catalog.tokens <= budget, `${catalog.tokens} > ${budget}`);
    const shown = shownFns(catalog.text);
    assert.equal(shown.length, catalog.shown);
    assert.ok(catalog.shown >= previous, `budget ${budget} shows fewer than a smaller one`);
    previous = catalog.shown;
    for (const [ns, fns] of Object.entries(order)) {
      const mine = shown.filter((f) => f.startsWith(`${ns}_`));
      assert.deepEqual(
        mine,
        fns.slice(0, mine.length),
        `budget ${budget}: shortest first in ${ns}`,
      );
    }
    if (shown.some((f) => f.endsWith("_mid"))) {
      assert.ok(
        shown.includes("a_short") && shown.includes("b_short"),
        `budget ${budget}: round-robin`,
      );
    }
    if (catalog.shown < 6) {
      assert.match(catalog.text, /mcpx (types <ns>|ls)/);
    }
  }
  assert.equal(previous, 6);
});

Deno.test("buildCatalog() shows tools matching bias words first", async () => {
  const nss = [
    namespace("a", [["a_short", 10], ["take_screenshot", 200]]),
    namespace("b", [["b_short", 12], ["b_tagged", 150, ["visual"]]]),
  ];
  const biased = await buildCatalog(nss, { budget: 200, bias: ["visual"] });
  assert.ok(shownFns(biased.text).includes("b_tagged"));
  const plain = await buildCatalog(nss, { budget: 200 });
  assert.ok(!shownFns(plain.text).includes("b_tagged"));
  const both = await buildCatalog(nss, { budget: 400, bias: ["screenshots", "visual"] });
  assert.ok(shownFns(both.text).includes("take_screenshot"));
  assert.ok(shownFns(both.text).includes("b_tagged"));
});

Deno.test("buildCatalog() counts a bias word naming a namespace or ns.tool like a name hit", async (t) => {
  // Unbiased, round-robin fills 120 tokens with alpha's short tools and beta's never fit.
  const nss = [
    namespace("alpha", [["a_one", 30], ["a_two", 30], ["a_three", 30]]),
    namespace("beta", [["b_long", 150], ["b_longer", 160]]),
  ];
  const shown = async (bias?: string[]) =>
    shownFns((await buildCatalog(nss, { budget: 120, bias })).text);
  assert.deepEqual(await shown(), ["a_one", "a_two"]);
  const cases: [string, string[]][] = [
    ["beta", ["b_long"]],
    ["BETA", ["b_long"]],
    ["beta.b_longer", ["b_longer"]],
  ];
  for (const [word, expected] of cases) {
    await t.step(`--bias ${word} shows ${expected.join(", ")}`, async () => {
      assert.deepEqual(await shown([word]), expected);
    });
  }
});

Deno.test("buildCatalog() never exceeds the budget, however many namespaces", async (t) => {
  const many = Array.from({ length: 500 }, (_, i) =>
    namespace(
      `server_${i}`,
      Array.from({ length: 3 }, (_, j) =>
        [`tool_${j}`, 5 + ((i * 7 + j * 13) % 40)] as [string, number]),
      `synthetic server number ${i} with a description long enough to need truncating here`,
    ));
  for (const budget of [0, 10, 50, 200, 2000, 20_000]) {
    await t.step(`budget ${budget}`, async () => {
      const catalog = await buildCatalog(many, { budget });
      assert.ok(catalog.tokens <= budget, `${catalog.tokens} > ${budget}`);
      assert.equal(catalog.tokens, countTokens(catalog.text));
      assert.equal(catalog.total, 1500);
      if (budget >= 50 && budget < 20_000) assert.match(catalog.text, /mcpx ls/);
      if (budget >= 200 && budget < 20_000) {
        assert.match(catalog.text, /^\/\/ mcpx catalog: 500 namespaces, 1500 tools/);
        assert.match(catalog.text, /… \d+ more namespaces/);
      }
      if (budget === 20_000) {
        assert.ok(catalog.shown > 0);
        assert.equal(
          catalog.text.split("\n").filter((l) => /^\/\/ {3}server_/.test(l)).length,
          500,
        );
      }
    });
  }
});

Deno.test("buildCatalog() refuses a negative budget", async () => {
  await assert.rejects(() => buildCatalog([], { budget: -1 }), RangeError);
  await assert.rejects(() => buildCatalog([], { budget: NaN }), RangeError);
});

Deno.test("buildCatalog() generates declarations that are not cached", async () => {
  const ns: NamespaceEntry = {
    namespace: "everything",
    server: "everything",
    description: "",
    tools: [toolEntry("everything", "echo", "Echoes back the input", {
      inputSchema: {
        type: "object",
        properties: { message: { type: "string" } },
        required: ["message"],
      },
    })],
  };
  const catalog = await buildCatalog([ns], { budget: 1000 });
  assert.ok(
    catalog.text.includes(
      "  function echo(args: { message: string }): Promise<ToolResult>;",
    ),
  );
});

Deno.test("buildCatalog() declares an object type the shown tools repeat once per namespace", async () => {
  const ns: NamespaceEntry = {
    namespace: "memory",
    server: "memory",
    description: "",
    tools: ["create_entities", "delete_entities"].map((fn) =>
      toolEntry("memory", fn, "", { inputSchema: GRAPH_SCHEMA, outputSchema: GRAPH_SCHEMA })
    ),
  };
  const catalog = await buildCatalog([ns], { budget: 2000 });
  assert.equal(catalog.shown, 2);
  assert.equal(catalog.text.match(/interface Entity \{/g)?.length, 1, catalog.text);
  assert.match(catalog.text, /function delete_entities\(args: \{ entities: Entity\[\] \}\)/);
});
