import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { CALL_PATH_TEMPLATE, OPENAPI_PATH, openApiDocument } from "./openapi.ts";
import { ROUTE_SPECS } from "./routes.ts";

Deno.test("openApiDocument() is a valid OpenAPI 3.1 document", async () => {
  const validator = new Validator();
  const verdict = await validator.validate(openApiDocument());
  assert.ok(verdict.valid, JSON.stringify(verdict.errors, null, 2));
  assert.equal(validator.version, "3.1");
});

Deno.test("openApiDocument() has one path per route, the templated call path and itself", () => {
  const paths = Object.keys(openApiDocument().paths as object);
  const expected = [
    ...Object.keys(ROUTE_SPECS).map((name) => `/v1/${name}`),
    CALL_PATH_TEMPLATE,
    OPENAPI_PATH,
  ];
  assert.deepEqual(paths.sort(), expected.sort());
});

Deno.test("openApiDocument() leaves no $ref it cannot resolve", () => {
  const doc = openApiDocument();
  const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
  for (const ref of refs) {
    const target = ref.slice('"$ref":"'.length, -1);
    assert.match(target, /^#\/components\/schemas\//, target);
    assert.ok(target.split("/").at(-1)! in schemas, target);
  }
});
