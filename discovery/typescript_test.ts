import assert from "node:assert/strict";
import { denoCheck, toolEntry } from "./_fixtures.ts";
import type { CachedTool } from "./types.ts";
import { renderNamespace, renderTypes, toolDeclaration, TYPES_PREAMBLE } from "./typescript.ts";

/** A tool whose input schema is `inputSchema`. */
const tool = (inputSchema: unknown, extra: Partial<CachedTool> = {}): CachedTool => ({
  name: "fn",
  inputSchema: inputSchema as Record<string, unknown>,
  ...extra,
});

interface Case {
  name: string;
  tool: CachedTool;
  /** The function identifier; `fn` when absent. */
  fn?: string;
  /** Substrings (or patterns) the declaration must contain. */
  has: (string | RegExp)[];
  /** Substrings it must not contain. */
  lacks?: string[];
}

const deepDag = (levels: number) => {
  const defs: Record<string, unknown> = { [`D${levels}`]: { type: "string" } };
  for (let i = 0; i < levels; i++) {
    defs[`D${i}`] = {
      type: "object",
      properties: { a: { $ref: `#/$defs/D${i + 1}` }, b: { $ref: `#/$defs/D${i + 1}` } },
    };
  }
  return { type: "object", properties: { root: { $ref: "#/$defs/D0" } }, $defs: defs };
};

const cases: Case[] = [
  {
    name: "echo from server-everything",
    tool: tool({
      type: "object",
      properties: { message: { type: "string", description: "Message to echo" } },
      required: ["message"],
      additionalProperties: false,
      $schema: "http://json-schema.org/draft-07/schema#",
    }, { name: "echo", description: "Echoes back the input" }),
    fn: "echo",
    has: [
      "/** Echoes back the input */\n" +
      "function echo(args: { /** Message to echo */ message: string }): Promise<ToolResult>;",
    ],
    lacks: ["MCP tool name", "[k: string]"],
  },
  {
    name: "add with an output schema",
    tool: tool({
      type: "object",
      properties: {
        a: { type: "number", description: "First number" },
        b: { type: "number", description: "Second number" },
      },
      required: ["a", "b"],
    }, {
      name: "add",
      description: "Adds two numbers",
      outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    }),
    has: ["/** First number */\n  a: number;", "b: number;", "}): Promise<{ sum: number }>;"],
  },
  {
    name: "$ref into $defs and definitions is inlined",
    tool: tool({
      type: "object",
      properties: { p: { $ref: "#/$defs/Point" }, q: { $ref: "#/definitions/Size" } },
      required: ["p"],
      $defs: {
        Point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } } },
      },
      definitions: { Size: { enum: ["s", "m", "l"] } },
    }),
    has: ['(args: { p: { x?: number; y?: number }; q?: "s" | "m" | "l" })'],
    lacks: ["interface"],
  },
  {
    name: "self-recursive tree becomes a named interface",
    tool: tool({
      type: "object",
      properties: { tree: { $ref: "#/$defs/Node" } },
      $defs: {
        Node: {
          type: "object",
          properties: {
            value: { type: "string" },
            children: { type: "array", items: { $ref: "#/$defs/Node" } },
          },
        },
      },
    }),
    has: [
      "interface Node { value?: string; children?: Node[] }\n",
      "function fn(args: { tree?: Node })",
    ],
  },
  {
    name: "mutual cycle and a root self-reference terminate",
    tool: tool({
      type: "object",
      properties: { a: { $ref: "#/$defs/A" }, self: { $ref: "#" } },
      $defs: {
        A: { type: "object", properties: { b: { $ref: "#/$defs/B" } } },
        B: { type: "object", properties: { a: { $ref: "#/$defs/A" } } },
      },
    }),
    has: ["interface A { b?: B }", "interface B { a?: A }", "interface Args {", "self?: Args"],
  },
  {
    name: "oneOf, anyOf and allOf",
    tool: tool({
      type: "object",
      properties: {
        one: { oneOf: [{ type: "string" }, { type: "integer" }] },
        any: { anyOf: [{ type: "boolean" }, { type: "array", items: { type: "string" } }] },
        all: {
          allOf: [
            { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
            { type: "object", properties: { b: { type: "number" } } },
          ],
        },
      },
    }),
    has: [
      "one?: string | number;",
      "any?: boolean | string[];",
      "all?: { a: string } & { b?: number };",
    ],
  },
  {
    name: "additionalProperties true, schema, and an object without properties",
    tool: tool({
      type: "object",
      properties: {
        open: {
          type: "object",
          properties: { id: { type: "string" } },
          additionalProperties: true,
        },
        env: { type: "object", additionalProperties: { type: "string" } },
        meta: { type: "object" },
        closed: { type: "object", properties: {}, additionalProperties: false },
      },
    }),
    has: [
      "open?: { id?: string; [k: string]: unknown };",
      "env?: { [k: string]: string };",
      "meta?: { [k: string]: unknown };",
      "closed?: {};",
    ],
  },
  {
    name: "patternProperties become an index signature without generator noise",
    tool: tool({
      type: "object",
      properties: { headers: { type: "object", patternProperties: { "^x-": { type: "string" } } } },
    }),
    has: ["headers?: { [k: string]: string }"],
    lacks: ["referenced by"],
  },
  {
    name: "tuples from items arrays and prefixItems",
    tool: tool({
      type: "object",
      properties: {
        old: {
          type: "array",
          items: [{ type: "string" }, { type: "number" }],
          additionalItems: false,
        },
        pair: {
          type: "array",
          prefixItems: [{ type: "number" }, { type: "number" }],
          items: false,
        },
        rest: { type: "array", prefixItems: [{ type: "string" }], items: { type: "boolean" } },
        many: { type: "array", items: { type: "string" }, minItems: 30 },
      },
    }),
    has: [
      "old?: [string, number];",
      "pair?: [number, number];",
      /rest\?: \[string, \.\.\.\(?boolean\)?\[\]\];/,
      "many?: string[];",
    ],
  },
  {
    name: "const and defaults",
    tool: tool({
      type: "object",
      properties: {
        kind: { const: "circle" },
        radius: { type: "number", default: 1, description: "Radius in px." },
        flags: { type: "array", items: { type: "string" }, default: ["a"] },
      },
    }),
    has: ['kind?: "circle";', "/** Radius in px. (default 1) */\n", '/** default ["a"] */\n'],
    lacks: ["@default"],
  },
  {
    name: "enums, including mixed types",
    tool: tool({
      type: "object",
      properties: {
        level: { type: "string", enum: ["debug", "info"] },
        mixed: { enum: ["a", 1, true, null] },
      },
      required: ["level"],
    }),
    has: ['level: "debug" | "info";', 'mixed?: "a" | 1 | true | null'],
  },
  {
    name: "nullable and type arrays with null",
    tool: tool({
      type: "object",
      properties: {
        a: { type: "string", nullable: true },
        b: { type: ["integer", "null"] },
        c: { $ref: "#/$defs/C", nullable: true },
        d: { type: "string", enum: ["x"], nullable: true },
      },
      $defs: { C: { type: "object", properties: { z: { type: "string" } } } },
    }),
    has: [
      "a?: string | null;",
      "b?: number | null;",
      "c?: { z?: string } | null;",
      'd?: "x" | null;',
    ],
  },
  {
    name: "property names that are not identifiers",
    tool: tool({
      type: "object",
      properties: {
        "x-y": { type: "string" },
        class: { type: "string" },
        "1st": { type: "number" },
        "has space": { type: "boolean" },
        'quo"te': { type: "string" },
      },
      required: ["x-y"],
    }),
    has: ['"x-y": string;', "class?: string;", '"1st"?: number;', '"has space"?: boolean;'],
  },
  {
    name: "empty schema",
    tool: tool({}),
    has: ["function fn(args: unknown): Promise<ToolResult>;"],
  },
  {
    name: "schema with no type but properties",
    tool: tool({ properties: { q: { description: "anything" } }, required: ["q"] }),
    has: ["{ /** anything */ q: unknown }"],
  },
  {
    name: "non-object root",
    tool: tool({ type: "array", items: { type: "string" } }),
    has: ["function fn(args: string[]): Promise<ToolResult>;"],
  },
  {
    name: "hostile keywords are ignored: tsType, titles, external refs",
    tool: tool({
      type: "object",
      title: "Evil",
      properties: {
        a: { type: "string", tsType: "never; }; declare const pwned: 1; interface X {" },
        b: { title: "Named", type: "object", properties: { c: { type: "string" } } },
        r: { $ref: "https://example.com/schema.json" },
        t: true,
        f: false,
      },
    }),
    has: ["a?: string;", "b?: { c?: string };", /r\?: unknown;/, "t?: unknown;", "f?: never;"],
    lacks: ["pwned", "interface Named", "Evil"],
  },
  {
    name: "a renamed tool notes its real name, and a description cannot end the comment",
    tool: tool({ type: "object", properties: {} }, {
      name: "take-screenshot",
      description: "Takes one */ then more\nSecond line.",
    }),
    has: [
      '/**\n * Takes one *\\/ then more\n * Second line. (MCP tool name "take-screenshot")\n */\n',
      "args: {}",
    ],
  },
  {
    name: "an exploding schema falls back to Record<string, unknown>",
    tool: tool(deepDag(24)),
    has: [
      "function fn(args: Record<string, unknown>): Promise<ToolResult>;",
      "not rendered",
      // What shows the accepted shape: the schema itself (`mcpx call --raw` prints a result).
      "`mcpx --json types <namespace>.fn` prints the JSON Schema the server accepts",
    ],
    lacks: ["call --raw"],
  },
  {
    name: "an argument of schema {} is unknown, and one named */ does not end a comment",
    tool: tool({
      type: "object",
      properties: { anything: {}, "*/": { type: "boolean" }, '"q"': {} },
      required: ["anything"],
    }),
    has: ["anything: unknown", '"*/"?: boolean', '"\\"q\\""?: unknown'],
    lacks: ["not rendered", "Record<string, unknown>"],
  },
  {
    name: "a broken output schema keeps the argument types",
    tool: tool({ type: "object", properties: { a: { type: "string" } } }, {
      outputSchema: deepDag(24),
    }),
    has: ["{ a?: string }", "Promise<ToolResult>", "Result type not rendered"],
  },
];

Deno.test("toolDeclaration() renders hard schemas as valid TypeScript", async (t) => {
  const declarations = await Promise.all(cases.map((c) => toolDeclaration(c.tool, c.fn ?? "fn")));
  for (const [i, c] of cases.entries()) {
    await t.step(c.name, () => {
      const text = declarations[i];
      for (const want of c.has) {
        if (typeof want === "string") {
          assert.ok(text.includes(want), `missing ${JSON.stringify(want)} in:\n${text}`);
        } else assert.match(text, want);
      }
      for (const unwanted of c.lacks ?? []) {
        assert.ok(!text.includes(unwanted), `has ${unwanted}:\n${text}`);
      }
    });
  }
  await t.step("every declaration type-checks", async () => {
    const blocks = declarations.map((d, i) =>
      `declare namespace case_${i} {\n${d.split("\n").map((l) => l && `  ${l}`).join("\n")}\n}`
    );
    const source = `${TYPES_PREAMBLE}\n\n${blocks.join("\n\n")}\n`;
    assert.equal(await denoCheck(source), "", source);
  });
});

Deno.test("renderNamespace() wraps declarations, preferring cached ones", async () => {
  const ns = {
    namespace: "everything",
    server: "everything",
    description: "reference server",
    tools: [
      toolEntry("everything", "echo", "Echoes back the input", {
        inputSchema: { type: "object", properties: { message: { type: "string" } } },
      }),
      toolEntry("everything", "add", "", {
        declaration: "/** cached */\nfunction add(args: { a: number }): Promise<ToolResult>;",
      }),
    ],
  };
  const all = await renderNamespace(ns);
  assert.equal(
    all,
    "/** reference server */\ndeclare namespace everything {\n" +
      "  /** Echoes back the input */\n" +
      "  function echo(args: { message?: string }): Promise<ToolResult>;\n\n" +
      "  /** cached */\n  function add(args: { a: number }): Promise<ToolResult>;\n}",
  );
  const one = await renderNamespace(ns, { tools: ["add"] });
  assert.ok(!one.includes("echo"));
  const none = await renderNamespace({ ...ns, description: "", tools: [] });
  assert.equal(none, "declare namespace everything {\n}");
});

Deno.test("renderNamespace() regenerates a cached declaration it cannot read", async () => {
  const ns = {
    namespace: "n",
    server: "n",
    description: "",
    tools: [
      toolEntry("n", "add", "Adds", {
        inputSchema: { type: "object", properties: { a: { type: "number" } } },
        declaration: "export const add = 1; // not a declaration mcpx writes",
      }),
    ],
  };
  assert.equal(
    await renderNamespace(ns),
    "declare namespace n {\n  /** Adds */\n  function add(args: { a?: number }): Promise<ToolResult>;\n}",
  );
});

Deno.test("renderTypes() output starts with the one-line preamble and type-checks", async () => {
  const ns = (name: string) => ({
    namespace: name,
    server: name,
    description: `${name} tools`,
    tools: [
      toolEntry(name, "take_screenshot", "Take a screenshot.", {
        tool: "take-screenshot",
        inputSchema: {
          type: "object",
          properties: { pageId: { type: "number" }, format: { enum: ["png", "jpeg"] } },
          required: ["pageId"],
        },
      }),
    ],
  });
  const text = await renderTypes([ns("chrome_devtools"), ns("other")]);
  assert.ok(text.startsWith(`${TYPES_PREAMBLE}\n\n/**`), text);
  assert.ok(!TYPES_PREAMBLE.includes("\n"), "one line of boilerplate");
  assert.ok(TYPES_PREAMBLE.startsWith("type ToolResult = unknown;"));
  assert.ok(TYPES_PREAMBLE.includes("mcpx call <ns>.<tool>"), "the header says how to call a tool");
  assert.ok(text.endsWith("}\n"));
  assert.equal(await denoCheck(text), "", text);
});
