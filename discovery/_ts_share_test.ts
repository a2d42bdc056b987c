import assert from "node:assert/strict";
import { type Declaration, parseDeclaration, printFunction, printNamed } from "./_ts_model.ts";
import { shareArgumentDocs, shareSentences, shareTypes } from "./_ts_share.ts";

const ENTITY = "{ /** The name of the entity */ name: string; /** Its type */ entityType: string }";
const decl = (text: string): Declaration => parseDeclaration(text);

Deno.test("shareTypes() names an object type a tool repeats after the member holding it", () => {
  const d = decl(
    `function create(args: { entities: ${ENTITY}[] }): Promise<{ entities: ${ENTITY}[] }>;`,
  );
  const named = shareTypes([d]);
  assert.deepEqual(named.map((n) => printNamed(n)), [`interface Entity ${ENTITY}`]);
  assert.equal(
    printFunction(d),
    "function create(args: { entities: Entity[] }): Promise<{ entities: Entity[] }>;",
  );
});

Deno.test("shareTypes() leaves small repeats and whole argument objects inline", () => {
  const small = decl(
    "function f(args: { a: { x: number }; b: { x: number } }): Promise<{ x: number }>;",
  );
  assert.deepEqual(shareTypes([small]), []);
  const roots = decl(`function g(args: ${ENTITY}): Promise<${ENTITY}>;`);
  assert.deepEqual(shareTypes([roots]), []);
});

Deno.test("shareTypes() across tools: one declaration per type, inline copies use its name", () => {
  const create = decl(
    `interface Entity ${ENTITY}\nfunction create(args: { entities: Entity[] }): Promise<{ entities: Entity[] }>;`,
  );
  const read = decl(`function read(args: {}): Promise<{ entities: ${ENTITY}[] }>;`);
  const again = decl(
    `interface Entity ${ENTITY}\nfunction again(args: { entities: Entity[] }): Promise<ToolResult>;`,
  );
  const named = shareTypes([create, read, again]);
  assert.deepEqual(named.map((n) => n.name), ["Entity"]);
  assert.equal(printFunction(read), "function read(args: {}): Promise<{ entities: Entity[] }>;");
});

Deno.test("shareTypes() renames a clashing name with a different body in the tool that has it", () => {
  const a = decl(
    "interface Node { value?: string; children?: Node[] }\nfunction a(args: { n: Node }): Promise<ToolResult>;",
  );
  const b = decl(
    "interface Node { id?: number; next?: Node }\nfunction b(args: { n: Node }): Promise<ToolResult>;",
  );
  const named = shareTypes([a, b]);
  assert.deepEqual(named.map((n) => printNamed(n)), [
    "interface Node { value?: string; children?: Node[] }",
    "interface Node2 { id?: number; next?: Node2 }",
  ]);
  assert.equal(printFunction(b), "function b(args: { n: Node2 }): Promise<ToolResult>;");
});

Deno.test("shareArgumentDocs() describes an argument once when tools describe it alike", () => {
  const tool = (fn: string, extra = "") =>
    decl(
      `function ${fn}(args: { /** Targets a specific page by ID. */ pageId: number${extra} }): Promise<ToolResult>;`,
    );
  const own = decl(
    "function close(args: { /** The page to close. */ pageId: number }): Promise<ToolResult>;",
  );
  const decls = [tool("click", "; /** The uid */ uid: string"), tool("hover"), own];
  assert.deepEqual(shareArgumentDocs(decls), [{
    name: "pageId",
    doc: "Targets a specific page by ID.",
  }]);
  assert.equal(
    printFunction(decls[1]),
    "function hover(args: { pageId: number }): Promise<ToolResult>;",
  );
  assert.match(printFunction(decls[2]), /The page to close/, "a different description stays");
  assert.match(printFunction(decls[0]), /\/\*\* The uid \*\/ uid/, "a description said once stays");
});

Deno.test("shareArgumentDocs() keeps descriptions when some tool has the argument undescribed", () => {
  const decls = [
    decl(
      "function a(args: { /** Where the file is, as an absolute path */ path: string }): Promise<ToolResult>;",
    ),
    decl(
      "function b(args: { /** Where the file is, as an absolute path */ path: string }): Promise<ToolResult>;",
    ),
    decl("function c(args: { path: string }): Promise<ToolResult>;"),
  ];
  assert.deepEqual(shareArgumentDocs(decls), []);
  assert.match(printFunction(decls[0]), /absolute path/);
});

Deno.test("shareSentences() says a sentence most tools repeat once, naming the exceptions", () => {
  const tool = (fn: string, doc: string) =>
    decl(`/** ${doc} */\nfunction ${fn}(args: {}): Promise<ToolResult>;`);
  const decls = [
    tool("read", "Reads a file. Only works within allowed directories."),
    tool("write", "Writes a file. Only works within allowed directories."),
    tool("list", "Lists a folder. Only works within allowed directories. Sorted by name."),
    tool("roots", "Lists the allowed directories."),
  ];
  assert.deepEqual(shareSentences(decls), [
    "All tools except roots: Only works within allowed directories.",
  ]);
  assert.deepEqual(decls.map((d) => d.doc), [
    ["Reads a file."],
    ["Writes a file."],
    ["Lists a folder. Sorted by name."],
    ["Lists the allowed directories."],
  ]);
  assert.deepEqual(shareSentences(decls.slice(0, 2)), [], "two tools are not enough");
});

Deno.test("shareSentences() leaves lines without a shared sentence exactly as they were", () => {
  const tool = (fn: string, doc: string) =>
    decl(`/**\n * ${doc}\n * Example:  a  b\n */\nfunction ${fn}(args: {}): Promise<ToolResult>;`);
  const decls = ["a", "b", "c"].map((fn) => tool(fn, "Only works within allowed directories."));
  assert.deepEqual(shareSentences(decls), ["All tools: Only works within allowed directories."]);
  assert.deepEqual(decls.map((d) => d.doc), [["Example:  a  b"], ["Example:  a  b"], [
    "Example:  a  b",
  ]]);
});
