import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { embedSchema, jsonSchemaDocument, mcpToolsList } from "./schema_forms.ts";
import { toolEntry } from "./_fixtures.ts";
import type { NamespaceEntry } from "./types.ts";

/** A recursive tree schema that points into itself three ways (`#/$defs`, `#/properties`, `#`). */
const TREE = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    root: { $ref: "#/$defs/Node" },
    copy: { $ref: "#/properties/root" },
    again: { $ref: "#" },
  },
  required: ["root"],
  $defs: {
    Node: {
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: "#/$defs/Node" } },
      },
      required: ["name"],
    },
  },
};

function namespaces(): NamespaceEntry[] {
  return [{
    namespace: "fs",
    server: "fs",
    description: "files",
    tools: [
      toolEntry("fs", "tree", "Walk a tree.", {
        inputSchema: TREE,
        outputSchema: { type: "object", properties: { count: { type: "integer" } } },
        title: "Tree walker",
        annotations: { readOnlyHint: true },
      }),
      toolEntry("fs", "odd", "", {
        tool: "odd/name~x",
        // A property named __proto__ (JSON.parse makes it an own key) stays a property.
        inputSchema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
      }),
    ],
  }];
}

Deno.test("embedSchema() re-points local $refs under the schema's new home and drops $schema", () => {
  const moved = embedSchema(TREE, "#/$defs/fs.tree");
  assert.equal(moved.$schema, undefined);
  const props = moved.properties as Record<string, { $ref: string }>;
  assert.equal(props.root.$ref, "#/$defs/fs.tree/$defs/Node");
  assert.equal(props.copy.$ref, "#/$defs/fs.tree/properties/root");
  assert.equal(props.again.$ref, "#/$defs/fs.tree");
  assert.equal(TREE.properties.root.$ref, "#/$defs/Node", "the server's schema is not modified");
});

Deno.test("jsonSchemaDocument() is a valid 2020-12 schema whose $defs validate tool arguments", () => {
  const doc = jsonSchemaDocument(namespaces());
  const defs = doc.$defs as Record<string, unknown>;
  assert.deepEqual(Object.keys(defs), ["fs.tree", "fs.tree.output", "fs.odd"]);
  const odd = defs["fs.odd"] as { properties: object };
  assert.ok(Object.hasOwn(odd.properties, "__proto__"), "an own key, not the prototype");
  const ajv = new Ajv2020({ strict: false });
  // Compiling checks the document against the meta-schema and resolves every $ref in it.
  ajv.addSchema(doc, "catalog");
  const valid = ajv.getSchema("catalog#/$defs/fs.tree")!;
  assert.ok(
    valid({ root: { name: "a", children: [{ name: "b" }] } }),
    JSON.stringify(valid.errors),
  );
  assert.equal(valid({ root: { children: [] } }), false, "a Node without name is refused");
  assert.equal(valid({ root: { name: "a" }, again: { root: { name: 1 } } }), false, "# recurses");
  assert.ok(ajv.validate("catalog", 42), "the document itself accepts anything");
});

Deno.test("mcpToolsList() names tools namespace.fn and keeps the server's schemas and hints", () => {
  const { tools } = mcpToolsList(namespaces());
  assert.deepEqual(tools.map((t) => t.name), ["fs.tree", "fs.odd"]);
  assert.equal(tools[0].title, "Tree walker");
  assert.deepEqual(tools[0].inputSchema, TREE);
  assert.deepEqual(tools[0].annotations, { readOnlyHint: true });
  assert.deepEqual(tools[1]._meta, {
    "mcpx/namespace": "fs",
    "mcpx/server": "fs",
    "mcpx/tool": "odd/name~x",
  });
});
