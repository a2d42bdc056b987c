import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { upstreamOpenApi } from "./schema_openapi.ts";
import { toolEntry } from "../discovery/_fixtures.ts";

const NAMESPACES = [{
  namespace: "fs",
  server: "fs",
  description: "files",
  tools: [
    toolEntry("fs", "read_file", "Read a file.", {
      tool: "read-file",
      inputSchema: {
        type: "object",
        properties: { path: { type: "string" }, opts: { $ref: "#/$defs/Opts" } },
        $defs: { Opts: { type: "object", properties: { head: { type: "integer" } } } },
      },
      outputSchema: { type: "object", properties: { text: { type: "string" } } },
    }),
    toolEntry("fs", "odd", "", { tool: "odd/name {x}" }),
  ],
}];

Deno.test("upstreamOpenApi() is a valid OpenAPI 3.1 document with one call path per tool", async () => {
  const doc = upstreamOpenApi(NAMESPACES);
  const validator = new Validator();
  const verdict = await validator.validate(doc);
  assert.ok(verdict.valid, JSON.stringify(verdict.errors, null, 2));
  assert.deepEqual(Object.keys(doc.paths as object), [
    "/v1/call/fs/read-file",
    "/v1/call/fs/odd%2Fname%20%7Bx%7D",
  ]);
  // Every $ref resolves to a component.
  const components = doc.components as Record<string, Record<string, unknown>>;
  for (const ref of JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? []) {
    const [, , kind, name, ...rest] = ref.slice('"$ref":"'.length, -1).split("/");
    assert.ok(components[kind] && name in components[kind], ref);
    if (rest.length) assert.deepEqual(rest, ["$defs", "Opts"], ref);
  }
  const op =
    (doc.paths as Record<string, { post: Record<string, unknown> }>)["/v1/call/fs/read-file"].post;
  assert.equal(op.operationId, "fs.read_file");
});
