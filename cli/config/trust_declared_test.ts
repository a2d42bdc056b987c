import assert from "node:assert/strict";
import { declaredRuns } from "./trust_declared.ts";

Deno.test("mcpx trust shows what a project's declared adapters and APIs run, and nothing else", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/.mcp.json`;
    await Deno.writeTextFile(
      `${dir}/adapters.json`,
      JSON.stringify({
        adapters: [{
          name: "echox",
          command: "sh",
          tools: [{ name: "say", args: ["-c", "echo hi"] }, { name: "ls", args: ["-l"] }],
        }],
      }),
    );
    await Deno.writeTextFile(
      `${dir}/apis.json`,
      JSON.stringify({
        apis: [
          { name: "pet", spec: "./pet.yaml" },
          { name: "shop", spec: "https://shop.test/openapi.json", baseUrl: "https://${HOST}/v2" },
        ],
      }),
    );
    await Deno.writeTextFile(
      `${dir}/pet.yaml`,
      "openapi: 3.1.0\nservers: [{ url: 'https://pets.test/v1' }]\npaths: {}\n",
    );
    const runs = await declaredRuns(
      { mcpServers: {}, paths: { adapters: ["./adapters.json"], apis: ["./apis.json"] } },
      file,
    );
    assert.deepEqual(runs.map((r) => [r.kind, r.name, r.file]), [
      ["adapter", "echox", `${dir}/adapters.json`],
      ["API", "pet", `${dir}/apis.json`],
      ["API", "shop", `${dir}/apis.json`],
    ]);
    assert.equal(runs[0].runs, `sh -c 'echo hi'; sh -l (in ${dir})`);
    assert.equal(runs[1].runs, `spec ${dir}/pet.yaml, base URL https://pets.test/v1`);
    // A reference is shown as written, never expanded; a remote document is not fetched.
    assert.equal(runs[2].runs, "spec https://shop.test/openapi.json, base URL https://${HOST}/v2");

    // A place that is not there is shown as such; a file without paths declares nothing.
    const missing = await declaredRuns({ paths: { adapters: "./nothere.json" } }, file);
    assert.equal(missing.length, 1);
    assert.match(missing[0].runs, /cannot be read: .*does not exist/);
    assert.deepEqual(await declaredRuns({ mcpServers: {} }, file), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
