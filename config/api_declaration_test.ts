import assert from "node:assert/strict";
import { readApiDeclaration } from "./api_declaration.ts";
import { ConfigError } from "../core/errors.ts";

const FILE = "/p/apis/decl.json";

Deno.test("readApiDeclaration() resolves a relative spec against its file, expands ${VAR} in auth and headers, and reads methods as a list", () => {
  const d = readApiDeclaration(
    {
      name: "petstore",
      spec: "../petstore.yaml",
      methods: ["get", "post"],
      auth: { type: "bearer", token: "${PET_TOKEN}" },
      headers: { "X-Team": "${TEAM:-core}" },
      timeout: "30s",
    },
    FILE,
    0,
    { PET_TOKEN: "t-1" },
  );
  assert.deepEqual(d, {
    name: "petstore",
    spec: "/p/petstore.yaml",
    methods: "get,post",
    deprecated: false,
    auth: { type: "bearer", token: "t-1" },
    headers: { "X-Team": "core" },
    timeoutMs: 30_000,
  });
  const remote = readApiDeclaration(
    { name: "x", spec: "https://a.test/openapi.json" },
    FILE,
    0,
    {},
  );
  assert.equal(remote.spec, "https://a.test/openapi.json");
  assert.equal(remote.methods, "read");
});

Deno.test("readApiDeclaration() names every problem of an item with its path and the fix", () => {
  let error: unknown;
  try {
    readApiDeclaration(
      {
        name: "bad",
        methods: 3,
        baseUrl: "ftp://x",
        auth: { type: "bearer", token: "${UNSET_TOKEN}" },
        colour: "red",
      },
      FILE,
      2,
      {},
    );
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof ConfigError);
  const text = error.message;
  assert.match(text, /apis\[2\]\.colour.*is not a field/);
  assert.match(text, /apis\[2\]\.spec.*must be the OpenAPI document's path or URL/);
  assert.match(text, /apis\[2\]\.methods.*"read", "all" or a list/);
  assert.match(text, /apis\[2\]\.baseUrl.*must be an http\(s\) URL/);
  assert.match(text, /\$\{UNSET_TOKEN\} is not set \(API "bad"\)/);
});
