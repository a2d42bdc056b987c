import assert from "node:assert/strict";
import { loadConfig } from "./load.ts";
import { readCompiled } from "./compiled.ts";

Deno.test("writeCompiled() keeps expanded secrets private", async (t) => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-compiled-" }));
  try {
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
    const cacheDir = `${dir}/cache/mcpx`;
    const config = await loadConfig({ cwd: dir, env, compiledCacheDir: cacheDir });
    const file = `${cacheDir}/config-${config.fingerprint}.json`;

    await t.step("creates the cache directory with mode 0700", async () => {
      assert.equal((await Deno.stat(cacheDir)).mode! & 0o777, 0o700);
    });
    await t.step("writes the compiled file with mode 0600", async () => {
      assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    });
    await t.step("records variables as digests, never their plain text", async () => {
      const entry = JSON.parse(await Deno.readTextFile(file));
      assert.deepEqual(Object.keys(entry.env), ["TOKEN"]);
      assert.ok(!JSON.stringify(entry.env).includes(token), JSON.stringify(entry.env));
      assert.match(entry.env.TOKEN, /^[0-9a-f]{64}$/);
    });
    await t.step(
      "is read back while the value is the same, and missed when it changes",
      async () => {
        assert.ok(await readCompiled(cacheDir, config.fingerprint, env));
        assert.equal(
          await readCompiled(cacheDir, config.fingerprint, { ...env, TOKEN: "x" }),
          undefined,
        );
        assert.equal(await readCompiled(cacheDir, config.fingerprint, { HOME: dir }), undefined);
      },
    );
    await t.step("leaves the mode of a cache directory it did not create alone", async () => {
      const own = `${dir}/own-cache`;
      await Deno.mkdir(own, { mode: 0o755 });
      await Deno.chmod(own, 0o755);
      await loadConfig({ cwd: dir, env, compiledCacheDir: own });
      assert.equal((await Deno.stat(own)).mode! & 0o777, 0o755);
      assert.equal(
        (await Deno.stat(`${own}/config-${config.fingerprint}.json`)).mode! & 0o777,
        0o600,
      );
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
