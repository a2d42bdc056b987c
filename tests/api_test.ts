/**
 * OpenAPI documents as namespaces, end to end (decision 0053): a petstore on
 * loopback serving its own document, tried with `mcpx api tools|call --spec`
 * and declared in a `paths.apis` file, where the daemon runs it as a server
 * (`mcpx api serve`) that `ls`, `call` and a script's generated client reach
 * like any other, its `auth` block sent on every request.
 */
import assert from "node:assert/strict";
import { world } from "./_helpers.ts";
import { servePetstore } from "./fixtures/petstore.ts";

Deno.test("mcpx api: --spec lists and calls; a declared API is a namespace for ls, call and a script", async () => {
  await using store = servePetstore({ apiKey: "k-123" });
  await using w = await world();
  const spec = `${store.origin}/api/v3/openapi.yaml`;

  // Tried without declaring: reads only, then a call with the key as a header.
  const listed = await w.json(["api", "tools", "--spec", spec]);
  assert.deepEqual(listed.tools.map((t: { name: string }) => t.name), [
    "listPets",
    "getPetById",
    "getFile",
  ]);
  assert.equal(listed.baseUrl, `${store.origin}/api/v3`);
  const sold = await w.mcpx([
    "api",
    "call",
    "listPets",
    '{"status":"sold"}',
    "--spec",
    spec,
    "--header",
    "X-Api-Key: k-123",
  ]);
  assert.equal(sold.code, 0, sold.stderr);
  assert.deepEqual(JSON.parse(sold.stdout), [{ id: 2, name: "Tom", status: "sold" }]);

  // Declared: the daemon runs it as the namespace "petstore", its key from ${PET_KEY}.
  await w.writeConfig({ mcpServers: {} });
  await Deno.writeTextFile(
    `${w.dir}/apis.json`,
    JSON.stringify({
      apis: [{
        name: "petstore",
        spec,
        methods: ["get", "post"],
        auth: { type: "header", name: "X-Api-Key", value: "${PET_KEY}" },
      }],
    }),
  );
  const env = { MCPX_PATHS_APIS: `${w.dir}/apis.json`, PET_KEY: "k-123" };
  const ls = await w.json(["ls"], { env });
  const ns = ls.namespaces.find((n: { namespace: string }) => n.namespace === "petstore");
  // GET and POST, as declared: listPets, addPet, getPetById, getFile (not deletePet).
  assert.deepEqual([ns?.state, ns?.tools], ["ready", 4], JSON.stringify(ls));
  const types = await w.mcpx(["types", "petstore.getPetById"], { env });
  assert.match(types.stdout, /petId: number/, types.stderr);
  assert.match(types.stdout, /"X-Request-Id"\?: string/);
  const one = await w.mcpx(["call", "petstore.getPetById", '{"petId":3}'], { env });
  assert.equal(one.code, 0, one.stderr);
  assert.equal(JSON.parse(one.stdout).name, "Kit");

  await Deno.writeTextFile(
    `${w.dir}/pets.ts`,
    `export default async function main() {
  const added = await petstore.addPet({ body: { name: "Bo", status: "sold" } });
  const sold = await petstore.listPets({ status: "sold" });
  const one = await petstore.getPetById({ petId: 1 });
  const raw = await petstore.getFile({ name: "a/b" });
  return {
    added: added.name,
    sold: sold.map((p: { name: string }) => p.name),
    one: one.name,
    raw: String(raw),
  };
}
`,
  );
  const ran = await w.mcpx(["run", "./pets.ts"], { env });
  assert.equal(ran.code, 0, ran.stderr);
  // Every tool tools/list offers is callable from the script; the "/" stayed in its segment.
  assert.deepEqual(JSON.parse(ran.stdout), {
    added: "Bo",
    sold: ["Tom", "Bo"],
    one: "Rex",
    raw: "/api/v3/files/a%2Fb",
  });
  // Every operation call carried the key; none went out without it.
  const calls = store.requests.filter((r) => !r.path.includes("openapi."));
  assert.ok(calls.length >= 4);
  assert.ok(calls.every((r) => r.headers.get("x-api-key") === "k-123"));

  // An argument the schema refuses is not sent.
  const bad = await w.mcpx(["call", "petstore.listPets", '{"limit":"x"}'], { env });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /argument "limit" must be integer, got "x"/);
  assert.equal(store.requests.filter((r) => !r.path.includes("openapi.")).length, calls.length);

  // A wrong key the service quotes back is shown as its variable, as for a configured server.
  const wrong = { ...env, PET_KEY: "wrong-key-9" };
  const denied = await w.mcpx(["call", "petstore.listPets", "{}"], { env: wrong });
  assert.equal(denied.code, 1);
  assert.match(denied.stderr, /HTTP 401/);
  assert.match(denied.stderr, /\$\{PET_KEY\}/);
  assert.ok(!/wrong-key-9|d3Jvbmcta2V5LTk/.test(denied.stdout + denied.stderr), denied.stderr);

  // Its variable unset, the namespace's failure says so, not only that it exited.
  const unset = await w.json(["ls"], { env: { MCPX_PATHS_APIS: env.MCPX_PATHS_APIS } });
  const failed = unset.namespaces.find((n: { namespace: string }) => n.namespace === "petstore");
  assert.match(
    failed?.error ?? "",
    /^server "petstore": .*\$\{PET_KEY\} is not set/,
    JSON.stringify(unset),
  );
});
