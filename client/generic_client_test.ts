import assert from "node:assert/strict";
import { GENERIC_CLIENT_URL, genericClientText, packageVersion } from "./generic_client.ts";

Deno.test("client/package/mod.ts is what genericClientText() generates (run `deno task gen`)", async () => {
  const fresh = await genericClientText(await packageVersion());
  assert.equal(await Deno.readTextFile(GENERIC_CLIENT_URL), fresh);
});

Deno.test("the generic client imports nothing, so @mcpx/client holds no file outside its folder", async () => {
  const text = await Deno.readTextFile(GENERIC_CLIENT_URL);
  assert.deepEqual(
    [...text.matchAll(/^\s*(?:import|export)\b[^;\n]*\bfrom\s*["']([^"']+)["']/gm)],
    [],
  );
});

Deno.test("the generic client's tools reach any namespace, and none is a thenable", async () => {
  const client = await import(GENERIC_CLIENT_URL.href);
  const fs = client.tools.fs;
  assert.equal(typeof fs.read_file, "function");
  assert.equal(client.tools.then, undefined);
  assert.equal(typeof fs.$prompts.list, "function");
  assert.equal(client.default, client.tools);
});

Deno.test("the package version is the main package's (one mcpx release, two packages)", async () => {
  const root = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assert.equal(await packageVersion(), root.version);
});
