import assert from "node:assert/strict";
import { packageCacheFailure } from "./npm_cache.ts";

// The texts below are what npm 11.19 and node 20.20 printed here for a cut-off
// `npx -y @modelcontextprotocol/server-memory@2026.8.31` (see tests/first_start_test.ts).
const COULD_NOT_READ = `npm error code ENOENT
npm error syscall open
npm error path /tmp/n/_npx/c98ccc168155bafa/package.json
npm error errno -2
npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/tmp/n/_npx/c98ccc168155bafa/package.json'
npm error enoent This is related to npm not being able to find a file.
npm error enoent
npm error A complete log of this run can be found in: /tmp/n/_logs/2026-12-01T06_01_15_009Z-debug-0.log
`;

const MISSING_DEPENDENCY = `node:internal/modules/esm/resolve:873
  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);
        ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /tmp/n/_npx/c98ccc168155bafa/node_modules/@modelcontextprotocol/server-memory/dist/index.js
    at packageResolve (node:internal/modules/esm/resolve:873:9)
`;

Deno.test("packageCacheFailure() names the npx folder to delete", async (t) => {
  for (
    const [name, stderr] of [["no package.json", COULD_NOT_READ], [
      "missing dependency",
      MISSING_DEPENDENCY,
    ]]
  ) {
    await t.step(name, () => {
      const found = packageCacheFailure(stderr);
      assert.equal(found?.remove, "/tmp/n/_npx/c98ccc168155bafa");
      assert.match(found!.fix, /rm -rf '\/tmp\/n\/_npx\/c98ccc168155bafa'/);
    });
  }
});

Deno.test("packageCacheFailure() recognises a bad checksum and a root-owned cache", () => {
  const integrity = packageCacheFailure(
    "npm error code EINTEGRITY\nnpm error sha512-abc integrity checksum failed when using sha512",
  );
  assert.match(integrity!.fix, /npm cache verify/);
  const owned = packageCacheFailure(
    'npm error Your cache folder contains root-owned files\nnpm error   sudo chown -R 501:20 "/Users/u/.npm"\n',
  );
  assert.match(owned!.fix, /sudo chown -R 501:20 "\/Users\/u\/\.npm"/);
});

Deno.test("packageCacheFailure() says nothing about other failures", () => {
  assert.equal(packageCacheFailure("Error: Cannot find module '/srv/app/server.js'"), undefined);
  assert.equal(packageCacheFailure(""), undefined);
});
