import assert from "node:assert/strict";
import { type JsoncWork, parseJsonc } from "./_jsonc.ts";
import { ConfigError } from "../core/errors.ts";

/** `{ "mcpServers": { … n servers … } }`, the first `dups` of them writing "command" twice. */
function document(n: number, dups: number): string {
  const servers = Array.from(
    { length: n },
    (_, i) =>
      `    "s${i}": {\n      "command": "npx",${
        i < dups ? `\n      "command": "again",` : ""
      }\n      "args": ["-y", "pkg-${i}"] // comment\n    }`,
  );
  return `{\n  "mcpServers": {\n${servers.join(",\n")},\n  },\n}\n`;
}

const work = (): JsoncWork => ({ scanned: 0, lookups: 0, steps: 0 });

Deno.test("parseJsonc() locates nothing in a document without duplicates or errors", () => {
  const spent = work();
  const { value, duplicates } = parseJsonc(document(5_000, 0), "/c.json", spent);
  assert.equal(Object.keys((value as any).mcpServers).length, 5_000);
  assert.deepEqual(duplicates, []);
  assert.deepEqual(spent, { scanned: 0, lookups: 0, steps: 0 });
});

Deno.test("parseJsonc() reads the text once to place any number of duplicate keys", () => {
  // Locating each key by rescanning from the start of the text (the earlier
  // code) made loading 10,000 servers quadratic: ~n²/2 characters read.
  const text = document(5_000, 2_000);
  const lines = text.split("\n").length;
  const spent = work();
  const { duplicates } = parseJsonc(text, "/c.json", spent);
  assert.equal(duplicates.length, 2_000);
  assert.equal(spent.scanned, text.length, "one table of line starts, built once");
  assert.equal(spent.lookups, 2 * 2_000, "two lookups per duplicate, none for other keys");
  assert.ok(spent.steps <= spent.lookups * Math.ceil(Math.log2(lines + 1)), `${spent.steps} steps`);
  // Two opening lines, then 5 lines per server (with its repeated key).
  assert.deepEqual(duplicates[0], {
    path: ["mcpServers", "s0"],
    key: "command",
    lines: [4, 5],
  });
  assert.deepEqual(duplicates[1].lines, [9, 10]);
});

Deno.test("parseJsonc() builds plain values: comments, trailing commas, __proto__ as a key", () => {
  const { value } = parseJsonc(
    `// c\n{ "a": [1, "x", true, null, { "b": {} },], "__proto__": { "polluted": 1 }, }`,
    null,
  );
  const v = value as Record<string, unknown>;
  assert.deepEqual(v.a, [1, "x", true, null, { b: {} }]);
  assert.ok(Object.hasOwn(v, "__proto__"));
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(parseJsonc("  // only a comment\n", null).value, undefined);
  assert.equal(parseJsonc("3", null).value, 3);
});

Deno.test("parseJsonc() names the place of the first syntax error", () => {
  const spent = work();
  assert.throws(
    () => parseJsonc(`{\n  "a": 1,\n  "b" 2\n}`, "/p/c.json", spent),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.message.includes("/p/c.json:3:7: ColonExpected") &&
      error.message.includes("a `:` was expected after the key"),
  );
  assert.equal(spent.lookups, 1);
});

Deno.test("parseJsonc() gives a repeated key's path inside arrays and nested objects", () => {
  const { duplicates } = parseJsonc(`{"x": [0, {"y": {"k": 1,\n"k": 2}}]}`, null);
  assert.deepEqual(duplicates, [{ path: ["x", 1, "y"], key: "k", lines: [1, 2] }]);
});
