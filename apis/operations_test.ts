import assert from "node:assert/strict";
import { documentLocation, loadDocument, trustsLocalRefs } from "./document.ts";
import { operationsOf, parseMethods } from "./operations.ts";
import { buildRequest, callOperation } from "./request.ts";
import { McpxError } from "../core/errors.ts";
import { petstoreDocument, servePetstore } from "../tests/fixtures/petstore.ts";

Deno.test("operationsOf() offers reads by default, labels deprecated ones when asked, resolves a relative server against the document's URL", async () => {
  await using store = servePetstore();
  for (const form of ["json", "yaml"]) {
    const loaded = await loadDocument(
      documentLocation(`${store.origin}/api/v3/openapi.${form}`, "/"),
    );
    const reads = operationsOf(loaded);
    assert.deepEqual(reads.map((o) => o.tool), ["listPets", "getPetById", "getFile"], form);
    assert.equal(reads[0].baseUrl, `${store.origin}/api/v3`);
    const all = operationsOf(loaded, { methods: parseMethods("all"), deprecated: true });
    assert.deepEqual(all.map((o) => o.tool), [
      "listPets",
      "addPet",
      "getPetById",
      "deletePet",
      "findPetsByTags",
      "getFile",
    ]);
    const old = all.find((o) => o.tool === "findPetsByTags")!;
    assert.match(old.description, /^DEPRECATED\. GET \/pets\/findByTags/);
    // Path-item parameters, operation parameters and the dereferenced body: one object.
    const get = all.find((o) => o.tool === "getPetById")!;
    assert.deepEqual(get.inputSchema.required, ["petId"]);
    assert.deepEqual(Object.keys(get.inputSchema.properties), ["petId", "X-Request-Id"]);
    const add = all.find((o) => o.tool === "addPet")!;
    const body = add.inputSchema.properties.body as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(body.properties), ["id", "name", "status", "tags"]);
    assert.deepEqual(add.inputSchema.required, ["body"]);
  }
});

Deno.test("operationsOf() names the fix for a relative server URL under a document read from a file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/petstore.json`, JSON.stringify(petstoreDocument()));
    const loaded = await loadDocument(documentLocation("petstore.json", dir));
    const [op] = operationsOf(loaded);
    assert.equal(typeof op.baseUrl, "object");
    assert.throws(() => buildRequest(op, {}), /relative to a file.*baseUrl.*--base-url/);
    const [fixed] = operationsOf(loaded, {}, "http://127.0.0.1:1/v3/");
    assert.equal(buildRequest(fixed, { limit: 2 }).url, "http://127.0.0.1:1/v3/pets?limit=2");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadDocument() refuses an invalid document, naming it and the problem", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/bad.yaml`, "openapi: 3.1.0\ninfo: { title: x }\npaths: {}\n");
    const error = await loadDocument(documentLocation("bad.yaml", dir)).catch((e) => e);
    assert.ok(error instanceof McpxError && error.code === "api-spec");
    assert.match(error.message, /bad\.yaml.*version/);
    assert.doesNotMatch(error.message, /\n\s+at /);
    assert.throws(() => parseMethods("get,fetch"), /unknown HTTP method "fetch"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("callOperation() escapes path parameters, sends query, header, body and auth, and reports an HTTP error as an error result", async () => {
  await using store = servePetstore({ apiKey: "k-123" });
  const loaded = await loadDocument(documentLocation(`${store.origin}/api/v3/openapi.json`, "/"));
  const ops = new Map(
    operationsOf(loaded, { methods: parseMethods("all") }).map((o) => [o.tool, o]),
  );
  const auth = { type: "header" as const, name: "X-Api-Key", value: "k-123" };

  const file = await callOperation(ops.get("getFile")!, { name: "a/b c?d" }, { auth });
  assert.equal((file.content[0] as { text: string }).text, "/api/v3/files/a%2Fb%20c%3Fd");

  const listed = await callOperation(ops.get("listPets")!, { status: "available", limit: 1 }, {
    auth,
  });
  assert.deepEqual(JSON.parse((listed.content[0] as { text: string }).text), [
    { id: 1, name: "Rex", status: "available" },
  ]);
  assert.equal(store.requests.at(-1)!.path, "/api/v3/pets?status=available&limit=1");

  const one = await callOperation(ops.get("getPetById")!, { petId: 3, "X-Request-Id": "r-1" }, {
    auth,
  });
  assert.deepEqual(one.structuredContent, {
    id: 3,
    name: "Kit",
    status: "available",
    requestId: "r-1",
  });

  const added = await callOperation(ops.get("addPet")!, { body: { name: "Bo" } }, { auth });
  assert.equal(added.structuredContent?.name, "Bo");
  assert.equal(store.requests.at(-1)!.headers.get("content-type"), "application/json");

  const missing = await callOperation(ops.get("getPetById")!, { petId: 99 }, { auth });
  assert.equal(missing.isError, true);
  assert.match((missing.content[0] as { text: string }).text, /^HTTP 404.*\n.*no pet 99/s);

  const refused = await callOperation(ops.get("listPets")!, {});
  assert.equal(refused.isError, true);
  assert.match((refused.content[0] as { text: string }).text, /^HTTP 401/);

  assert.throws(
    () => buildRequest(ops.get("getPetById")!, { id: 1 }),
    /getPetById takes no argument "id"; it takes petId, X-Request-Id/,
  );
  assert.throws(() => buildRequest(ops.get("getPetById")!, {}), /getPetById needs "petId"/);
});

Deno.test("loadDocument() names a missing file and an unreachable URL without a stack", async () => {
  const missing = await loadDocument(documentLocation("nope.yaml", "/tmp")).catch((e) => e);
  assert.match(
    missing.message,
    /^cannot read the OpenAPI document \/tmp\/nope\.yaml: no such file/,
  );
  await using store = servePetstore();
  const gone = await loadDocument(documentLocation(`${store.origin}/other.json`, "/")).catch((e) =>
    e
  );
  assert.match(gone.message, /other\.json: HTTP 404/);
});

Deno.test("trustsLocalRefs() lets a local or private document reference its neighbours, not one from elsewhere", () => {
  const cases: [string, boolean][] = [
    ["file:///p/api.yaml", true],
    ["http://127.0.0.1:8080/openapi.json", true],
    ["http://localhost/openapi.json", true],
    ["http://[::1]:9/openapi.json", true],
    ["http://10.1.2.3/openapi.json", true],
    ["http://172.20.0.1/openapi.json", true],
    ["https://api.example.com/openapi.json", false],
    ["http://172.32.0.1/openapi.json", false],
  ];
  for (const [url, trusted] of cases) assert.equal(trustsLocalRefs(new URL(url)), trusted, url);
});

Deno.test("loadDocument() cuts a recursive schema, so every tool's schema is JSON", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const doc = {
      openapi: "3.0.3",
      info: { title: "tree", version: "1" },
      servers: [{ url: "https://tree.test" }],
      paths: {
        "/nodes": {
          post: {
            operationId: "addNode",
            requestBody: {
              content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            type: "object",
            properties: {
              name: { type: "string" },
              children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
            },
          },
        },
      },
    };
    await Deno.writeTextFile(`${dir}/tree.json`, JSON.stringify(doc));
    const loaded = await loadDocument(documentLocation("tree.json", dir));
    const [op] = operationsOf(loaded, { methods: parseMethods("all") });
    const text = JSON.stringify(op.inputSchema);
    assert.match(text, /recursive/);
    assert.equal(op.baseUrl, "https://tree.test/");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("callOperation() keeps a query credential out of a failure's message", async () => {
  await using store = servePetstore();
  const loaded = await loadDocument(documentLocation(`${store.origin}/api/v3/openapi.json`, "/"));
  const [op] = operationsOf(loaded, {}, "http://127.0.0.1:9/v3");
  const auth = { type: "query" as const, name: "key", value: "s3cret/+x" };
  const failing: typeof fetch = (input) =>
    Promise.reject(new TypeError(`error sending request for url (${String(input)})`));
  const error = await callOperation(op, {}, { auth, fetch: failing }).catch((e) => e);
  assert.equal(error.code, "api-request");
  assert.doesNotMatch(error.message, /s3cret/);
  // The runtime's message quoted the URL with the credential: only the origin is named.
  assert.match(error.message, /http:\/\/127\.0\.0\.1:9 could not be reached/);
});

Deno.test("buildRequest() checks arguments against the operation's schema and refuses a path parameter that would leave its segment", async () => {
  await using store = servePetstore();
  const loaded = await loadDocument(documentLocation(`${store.origin}/api/v3/openapi.json`, "/"));
  const ops = new Map(
    operationsOf(loaded, { methods: parseMethods("all") }).map((o) => [o.tool, o]),
  );
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["listPets", { limit: "x" }, /listPets: argument "limit" must be integer, got "x"/],
    ["listPets", { limit: 0 }, /argument "limit" must be >= 1, got 0/],
    [
      "listPets",
      { status: "lost" },
      /argument "status" .*allowed values: "available", "sold", got "lost"/,
    ],
    ["addPet", { body: { name: 5 } }, /argument "body"\["name"\] must be string, got 5/],
    ["getPetById", { petId: ".." }, /argument "petId" must be integer, got "\.\."/],
    ["getFile", { name: ".." }, /path parameter "name" cannot be "\.\.".*another endpoint/],
    ["getFile", { name: "." }, /path parameter "name" cannot be "\."/],
    ["getFile", { name: "" }, /path parameter "name" is empty/],
  ];
  for (const [tool, args, message] of cases) {
    const error = (() => {
      try {
        buildRequest(ops.get(tool)!, args);
      } catch (e) {
        return e;
      }
    })();
    assert.ok(
      error instanceof McpxError && error.code === "api-arguments",
      `${tool} ${JSON.stringify(args)}`,
    );
    assert.match(error.message, message);
  }
  // A dot inside a longer value stays in its segment.
  assert.match(buildRequest(ops.get("getFile")!, { name: "..x" }).url, /\/files\/\.\.x$/);
  assert.equal(store.requests.filter((r) => !r.path.includes("openapi")).length, 0);
});

Deno.test("callOperation() and loadDocument() name the origin that refused the connection and what to check", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const origin = `http://127.0.0.1:${listener.addr.port}`;
  listener.close();
  const doc = await loadDocument(documentLocation(`${origin}/openapi.json`, "/")).catch((e) => e);
  assert.match(
    doc.message,
    new RegExp(`nothing answers at ${origin} \\(connection refused\\).*document's URL`),
  );
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/petstore.json`, JSON.stringify(petstoreDocument()));
    const loaded = await loadDocument(documentLocation("petstore.json", dir));
    const [op] = operationsOf(loaded, {}, `${origin}/v3`);
    const error = await callOperation(op, {}).catch((e) => e);
    assert.equal(error.code, "api-request");
    assert.match(
      error.message,
      new RegExp(`nothing answers at ${origin} \\(connection refused\\)`),
    );
    assert.match(error.message, /"baseUrl", --base-url/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
