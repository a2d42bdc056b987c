import assert from "node:assert/strict";
import { ConfigError } from "../core/errors.ts";
import { adapterArgv, parseAdapter, toolInputSchema } from "./adapter.ts";

function adapterOf(item: Record<string, unknown>) {
  return parseAdapter({
    kind: "adapters",
    name: String(item.name),
    file: "/d/a.json",
    index: 0,
    item,
  });
}

const GREP = adapterOf({
  name: "grepx",
  command: "grep",
  tools: [{
    name: "find",
    args: ["--color=never"],
    params: [
      { name: "ignoreCase", flag: "-i", type: "boolean" },
      { name: "max", flag: "--max-count=", type: "integer", default: "5" },
      { name: "context", flag: "-C", type: "integer" },
      { name: "file", position: 1, type: "array" },
      { name: "pattern", position: 0, required: true },
    ],
  }],
}).tools[0];

Deno.test("adapterArgv() builds argv from fixed args, flags in order, then positions", () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ pattern: "x" }, ["--color=never", "--max-count=5", "x"]],
    [{ pattern: "x", ignoreCase: true, context: 2, file: ["a", "b"] }, [
      "--color=never",
      "-i",
      "--max-count=5",
      "-C",
      "2",
      "x",
      "a",
      "b",
    ]],
    [{ pattern: "x", ignoreCase: false, max: 1 }, ["--color=never", "--max-count=1", "x"]],
    // A value with shell syntax is one argv entry, never interpreted.
    [{ pattern: "$(rm -rf /); echo" }, ["--color=never", "--max-count=5", "$(rm -rf /); echo"]],
  ];
  for (const [input, argv] of cases) assert.deepEqual(adapterArgv(GREP, input), argv);
});

Deno.test("adapterArgv() refuses unknown, mistyped, missing and option-like arguments", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ pattern: "x", nope: 1 }, /find has no parameter "nope"; it takes ignoreCase, max/],
    [{ pattern: "x", context: "2" }, /parameter context must be an integer, got "2"/],
    [{}, /parameter pattern is required/],
    [{ pattern: "--include=/etc" }, /begins with "-" and would be read as an option/],
    [{ pattern: "x", ignoreCase: "yes" }, /parameter ignoreCase must be true or false/],
  ];
  for (const [input, message] of cases) assert.throws(() => adapterArgv(GREP, input), message);
});

Deno.test("toolInputSchema() types each parameter and accepts nothing else", () => {
  assert.deepEqual(toolInputSchema(GREP), {
    type: "object",
    properties: {
      ignoreCase: { type: "boolean" },
      max: { type: "integer", default: 5 },
      context: { type: "integer" },
      file: { type: "array", items: { type: "string" } },
      pattern: { type: "string" },
    },
    required: ["pattern"],
    additionalProperties: false,
  });
});

Deno.test("parseAdapter() names every problem of a declaration with its path", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ name: "a", tools: [{ name: "t" }] }, /adapters\[0\]\.command: must be the program to run/],
    [{ name: "a", command: "x", tools: [] }, /tools: must be a non-empty list/],
    [
      {
        name: "a",
        command: "x",
        tools: [{ name: "t", params: [{ name: "v", position: 0, type: "boolean" }] }],
      },
      /a boolean is a flag's presence/,
    ],
    [
      {
        name: "a",
        command: "x",
        tools: [{ name: "t", params: [{ name: "v", flag: "-v", position: 0 }] }],
      },
      /exactly one of "flag" .* got both/,
    ],
    [
      {
        name: "a",
        command: "x",
        tools: [{
          name: "t",
          params: [{ name: "n", flag: "-n", type: "integer", default: "ten" }],
        }],
      },
      /default: must be an integer, got "ten"/,
    ],
    [{ name: "a", command: "x", shell: "sh -c", tools: [{ name: "t" }] }, /shell: unknown key/],
    [
      { name: "a", command: "x", tools: [{ name: "get-x" }, { name: "get_x" }] },
      /tools\[1\]\.name: tools "get-x" and "get_x" both become "get_x"/,
    ],
  ];
  for (const [item, message] of cases) {
    assert.throws(
      () => adapterOf(item),
      (e) => e instanceof ConfigError && message.test(e.message),
    );
  }
  assert.equal(
    adapterOf({ name: "a", command: "./bin/x", tools: [{ name: "t" }] }).command,
    "/d/bin/x",
  );
});
