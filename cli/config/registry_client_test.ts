import assert from "node:assert/strict";
import { apiBase, searchRegistry, showRegistryServer } from "./registry_client.ts";
import { fixtureRegistry } from "../../tests/fixtures/registry/serve.ts";
import { McpxError, NotFoundError } from "../../core/errors.ts";

Deno.test("apiBase() adds /v0.1 unless the URL names an API version", () => {
  assert.equal(apiBase("https://r.test/"), "https://r.test/v0.1");
  assert.equal(apiBase("https://r.test/org/registry/v0.1"), "https://r.test/org/registry/v0.1");
  assert.equal(apiBase("https://r.test/v0"), "https://r.test/v0");
});

Deno.test("searchRegistry() asks for the latest versions and keeps the registry's metadata", async () => {
  await using r = await fixtureRegistry();
  const hits = await searchRegistry(r.url, "github.example", 2);
  assert.deepEqual(hits.map((h) => h.server.name), [
    "io.github.example/weather-mcp",
    "io.github.example/database-manager",
  ]);
  assert.equal(hits[1].official?.status, "deprecated");
  assert.deepEqual(r.asked, ["/v0.1/servers?search=github.example&version=latest&limit=2"]);
});

Deno.test("showRegistryServer() takes a full name, or a short one only one server has", async () => {
  await using r = await fixtureRegistry();
  const full = await showRegistryServer(r.url, "com.example/notes");
  assert.equal(full.server.version, "2.3.0");
  assert.equal(r.asked[0], "/v0.1/servers/com.example%2Fnotes/versions/latest");
  assert.equal((await showRegistryServer(r.url, "notes")).server.name, "com.example/notes");
  await assert.rejects(
    showRegistryServer(r.url, "example"),
    (e) => e instanceof NotFoundError && /no server called example/.test(e.message),
  );
  await assert.rejects(
    showRegistryServer(r.url, "io.example/none"),
    (e) => e instanceof NotFoundError && /has no server named io.example\/none/.test(e.message),
  );
});

Deno.test("searchRegistry() says when nothing answers, or what answers is no registry", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  await assert.rejects(
    searchRegistry(`http://127.0.0.1:${port}`, "x", 1),
    (e) =>
      e instanceof McpxError && e.code === "registry-unreachable" &&
      /cannot reach the registry at .*registry\.url \(MCPX_REGISTRY_URL\)/.test(e.message),
  );
  await using page = {
    server: Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response("<html>hello</html>"),
    ),
    async [Symbol.asyncDispose]() {
      await this.server.shutdown();
    },
  };
  const url = `http://127.0.0.1:${(page.server.addr as Deno.NetAddr).port}`;
  await assert.rejects(
    searchRegistry(url, "x", 1),
    (e) => e instanceof McpxError && /answered 200 OK with a body that is not JSON/.test(e.message),
  );
});
