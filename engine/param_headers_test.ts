import assert from "node:assert/strict";
import { invalidParamHeaders } from "./param_headers.ts";

const tool = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});
const header = (name: unknown, type: unknown = "string") => ({ type, "x-mcp-header": name });

Deno.test("invalidParamHeaders(): valid declarations pass, at any depth of properties", () => {
  assert.equal(invalidParamHeaders({ type: "object" }), undefined);
  assert.equal(
    invalidParamHeaders(tool({ a: header("Region"), b: header("X-Id", "integer") })),
    undefined,
  );
  assert.equal(
    invalidParamHeaders(tool({ o: tool({ flag: header("Flag", "boolean") }) })),
    undefined,
  );
});

Deno.test("invalidParamHeaders(): each rule of SEP-2243 names its fault", () => {
  const cases: [unknown, RegExp][] = [
    [tool({ a: header("") }), /a: x-mcp-header must be a non-empty string/],
    [tool({ a: header(7) }), /non-empty string, got 7/],
    [tool({ a: header("has space") }), /not an HTTP token/],
    [tool({ a: header("Bad:Colon") }), /not an HTTP token/],
    [tool({ a: header("N", "number") }), /string, integer or boolean property, not "number"/],
    [tool({ a: header("N", "object") }), /not "object"/],
    [tool({ a: { "x-mcp-header": "N" } }), /not "untyped"/],
    [tool({ a: header("Region"), b: header("region") }), /declared twice/],
    [{ type: "string", "x-mcp-header": "Root" }, /the schema's root/],
    [tool({ list: { type: "array", items: header("Item") } }), /list\.items: .*reached through/],
    [tool({}, { anyOf: [tool({ a: header("A") })] }), /anyOf\[0\]\.a/],
    [tool({}, { $defs: { d: header("D") } }), /\$defs\.d/],
    [tool({}, { additionalProperties: header("Extra") }), /additionalProperties/],
  ];
  for (const [schema, reason] of cases) {
    assert.match(invalidParamHeaders(schema) ?? "(valid)", reason, JSON.stringify(schema));
  }
});
