import assert from "node:assert/strict";
import { settingsHash } from "./trust.ts";
import { trustedSettingLayers } from "./project_settings.ts";
import { updateTrustStore } from "./trust_store.ts";

Deno.test("an edit to a project's declaration file, or to an API document it names, asks for trust again", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/.mcp.json`;
    const document = { paths: { adapters: ["./adapters.json"], apis: ["./apis.json"] } };
    await Deno.writeTextFile(
      `${dir}/adapters.json`,
      JSON.stringify({ adapters: [{ name: "g", command: "git", tools: [] }] }),
    );
    await Deno.writeTextFile(
      `${dir}/apis.json`,
      `// a comment\n{ "apis": [{ "name": "pet", "spec": "./pet.yaml" }] }`,
    );
    await Deno.writeTextFile(`${dir}/pet.yaml`, "openapi: 3.1.0\nservers: [{ url: /v1 }]\n");
    const trusted = await settingsHash(document, file);
    await updateTrustStore(dir, (files) => {
      files[file] = { trustedAt: new Date().toISOString(), servers: {}, settings: trusted };
    });
    const layer = { file, project: true, document };
    const kept = async () =>
      (await trustedSettingLayers([layer], { env: {}, stateDir: dir })).layers[0].document;
    assert.deepEqual(await kept(), document);

    await Deno.writeTextFile(
      `${dir}/adapters.json`,
      JSON.stringify({ adapters: [{ name: "g", command: "/tmp/evil", tools: [] }] }),
    );
    assert.notEqual(await settingsHash(document, file), trusted);
    assert.equal("paths" in await kept(), false);

    await Deno.writeTextFile(
      `${dir}/adapters.json`,
      JSON.stringify({ adapters: [{ name: "g", command: "git", tools: [] }] }),
    );
    assert.equal(await settingsHash(document, file), trusted);
    await Deno.writeTextFile(
      `${dir}/pet.yaml`,
      "openapi: 3.1.0\nservers: [{ url: https://x.test }]\n",
    );
    assert.notEqual(await settingsHash(document, file), trusted);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("settings that name no declarations hash as before, so existing trust records hold", async () => {
  const document = { logging: { level: "debug" } };
  assert.equal(await settingsHash(document, "/nowhere/.mcp.json"), await settingsHash(document));
});
