import assert from "node:assert/strict";
import { loadConfig } from "./load.ts";
import { readCompiled } from "./compiled.ts";
import { UnsafeDirectoryError } from "../core/private_fs.ts";
import { runnableHashes } from "./runnable_hash.ts";

/** A temporary directory (real path) removed when disposed. */
async function tmpDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-compiled-" }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

const PLAIN = { mcpServers: { api: { url: "https://x.test/mcp" } } };

Deno.test("writeCompiled() stores a configuration privately", async (t) => {
  await using tmp = await tmpDir();
  const dir = tmp.path;
  const env = { HOME: dir };
  await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify(PLAIN));
  const cacheDir = `${dir}/cache/mcpx`;
  const config = await loadConfig({ cwd: dir, env, compiledCacheDir: cacheDir });
  const file = `${cacheDir}/config-${config.fingerprint}.json`;

  await t.step("creates the cache directory with mode 0700", async () => {
    assert.equal((await Deno.stat(cacheDir)).mode! & 0o777, 0o700);
  });
  await t.step("writes the compiled file with mode 0600", async () => {
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  });
  await t.step("is read back", () => {
    assert.deepEqual(readCompiled(cacheDir, config.fingerprint)?.servers, config.servers);
  });
  await t.step("keeps the trust hashes, so a command reading it hashes nothing", async () => {
    const hashes = await runnableHashes(PLAIN);
    assert.deepEqual(readCompiled(cacheDir, config.fingerprint)?.runnableHashes, hashes);
    const again = await loadConfig({ cwd: dir, env, compiledCacheDir: cacheDir });
    assert.deepEqual(again.runnableHashes, hashes);
  });
  await t.step("narrows a cache directory of the user's that others can read to 0700", async () => {
    const own = `${dir}/own-cache`;
    await Deno.mkdir(own, { mode: 0o755 });
    await Deno.chmod(own, 0o755);
    await loadConfig({ cwd: dir, env, compiledCacheDir: own });
    assert.equal((await Deno.stat(own)).mode! & 0o777, 0o700);
    assert.equal(
      (await Deno.stat(`${own}/config-${config.fingerprint}.json`)).mode! & 0o777,
      0o600,
    );
  });
  await t.step("refuses a cache directory others can write into, reading nothing", async () => {
    const open = `${dir}/open-cache`;
    await Deno.mkdir(open);
    await Deno.chmod(open, 0o777);
    await assert.rejects(
      loadConfig({ cwd: dir, env, compiledCacheDir: open }),
      (e: unknown) =>
        e instanceof UnsafeDirectoryError && e.path === open && e.message.includes("mode 777"),
    );
    assert.deepEqual([...Deno.readDirSync(open)], []);
  });
});

Deno.test("writeCompiled() stores nothing for a configuration that names a variable", async () => {
  await using tmp = await tmpDir();
  const dir = tmp.path;
  const token = "s3cret-token-value";
  const env = { HOME: dir, TOKEN: token };
  await Deno.writeTextFile(
    `${dir}/.mcp.json`,
    JSON.stringify({
      mcpServers: {
        api: { url: "https://x.test/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
      },
    }),
  );
  const cacheDir = `${dir}/cache`;
  await Deno.mkdir(cacheDir);
  const config = await loadConfig({ cwd: dir, env, compiledCacheDir: cacheDir });
  assert.equal(config.servers[0].headers.Authorization, `Bearer ${token}`);
  assert.deepEqual([...Deno.readDirSync(cacheDir)].map((e) => e.name), []);

  // An entry an older mcpx left there (with the token in it) is deleted, not read.
  const stale = `${cacheDir}/config-${config.fingerprint}.json`;
  await Deno.writeTextFile(
    stale,
    JSON.stringify({ version: 2, mcpxVersion: "0.1.0", env: {}, parsed: config }),
  );
  const again = await loadConfig({ cwd: dir, env, compiledCacheDir: cacheDir });
  assert.equal(again.servers[0].headers.Authorization, `Bearer ${token}`);
  assert.deepEqual([...Deno.readDirSync(cacheDir)].map((e) => e.name), []);
});

Deno.test("writeCompiled() stores nothing for a configuration that writes a secret literally", async () => {
  await using tmp = await tmpDir();
  const dir = tmp.path;
  const cacheDir = `${dir}/cache`;
  await Deno.mkdir(cacheDir);
  for (
    const server of [
      { url: "https://x.test/mcp", headers: { Authorization: "Bearer literal-token-0042" } },
      { command: "srv", env: { API_KEY: "literal-key-0042" } },
      { url: "https://u:literal-pw-0042@x.test/mcp" },
    ]
  ) {
    await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify({ mcpServers: { s: server } }));
    await loadConfig({ cwd: dir, env: { HOME: dir }, compiledCacheDir: cacheDir });
    assert.deepEqual(
      [...Deno.readDirSync(cacheDir)].map((e) => e.name),
      [],
      JSON.stringify(server),
    );
  }
  // Values that are no secret (decision 0017) keep the configuration compiled.
  await Deno.writeTextFile(
    `${dir}/.mcp.json`,
    JSON.stringify({
      mcpServers: { s: { command: "srv", env: { DEBUG: "1", MODE: "production" } } },
    }),
  );
  await loadConfig({ cwd: dir, env: { HOME: dir }, compiledCacheDir: cacheDir });
  assert.equal([...Deno.readDirSync(cacheDir)].length, 1);
});

Deno.test("writeCompiled() deletes other entries written more than 7 days ago", async () => {
  await using tmp = await tmpDir();
  const dir = tmp.path;
  await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify(PLAIN));
  const cacheDir = `${dir}/cache`;
  await Deno.mkdir(cacheDir);
  const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
  const sixDaysAgo = new Date(Date.now() - 6 * 86_400_000);
  const files: Record<string, Date> = {
    "config-0000000000000001.json": eightDaysAgo,
    "config-0000000000000002.json": sixDaysAgo,
    "schemas-0000000000000001.json": eightDaysAgo,
  };
  for (const [name, time] of Object.entries(files)) {
    await Deno.writeTextFile(`${cacheDir}/${name}`, "{}");
    await Deno.utime(`${cacheDir}/${name}`, time, time);
  }
  const config = await loadConfig({ cwd: dir, env: { HOME: dir }, compiledCacheDir: cacheDir });
  assert.deepEqual(
    [...Deno.readDirSync(cacheDir)].map((e) => e.name).sort(),
    [
      "config-0000000000000002.json",
      `config-${config.fingerprint}.json`,
      "schemas-0000000000000001.json",
    ].sort(),
  );
});

Deno.test("readCompiled() ignores a damaged entry instead of crashing", async (t) => {
  await using tmp = await tmpDir();
  const dir = tmp.path;
  await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify(PLAIN));
  const cacheDir = `${dir}/cache`;
  const options = { cwd: dir, env: { HOME: dir }, compiledCacheDir: cacheDir };
  const good = await loadConfig(options);
  const file = `${cacheDir}/config-${good.fingerprint}.json`;
  const entry = JSON.parse(await Deno.readTextFile(file));
  const server = entry.parsed.servers[0];
  const damaged: [string, unknown][] = [
    ["servers is an object", { ...entry.parsed, servers: {} }],
    ["servers is missing", { ...entry.parsed, servers: undefined }],
    ["a server is null", { ...entry.parsed, servers: [null] }],
    ["a server has no pool", { ...entry.parsed, servers: [{ ...server, pool: undefined }] }],
    ["a server's args is a string", { ...entry.parsed, servers: [{ ...server, args: "x" }] }],
    ["document is an array", { ...entry.parsed, document: [] }],
    ["warnings is missing", { ...entry.parsed, warnings: undefined }],
    ["parsed is a string", "x"],
  ];
  for (const [what, parsed] of damaged) {
    await t.step(`when ${what}`, async () => {
      await Deno.writeTextFile(file, JSON.stringify({ ...entry, parsed }));
      assert.equal(readCompiled(cacheDir, good.fingerprint), undefined);
      const config = await loadConfig(options);
      assert.deepEqual(config.servers, good.servers);
    });
  }
  await t.step("when the file is not JSON", async () => {
    await Deno.writeTextFile(file, "{");
    assert.deepEqual((await loadConfig(options)).servers, good.servers);
  });
});
