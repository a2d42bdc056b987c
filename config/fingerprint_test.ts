import assert from "node:assert/strict";
import { join } from "node:path";
import {
  contentHashOf,
  fingerprintFile,
  fingerprintOf,
  NO_CONFIG_FINGERPRINT,
} from "./fingerprint.ts";
import { loadConfig } from "./load.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("await fingerprintOf() behaviour", async (t) => {
  await t.step("is 16 hex chars and stable", async () => {
    const a = await fingerprintOf("/p/.mcp.json", bytes("{}"), {});
    assert.match(a, /^[0-9a-f]{16}$/);
    assert.equal(a, await fingerprintOf("/p/.mcp.json", bytes("{}"), {}));
  });
  await t.step("changes with the path and with the bytes", async () => {
    const a = await fingerprintOf("/p/.mcp.json", bytes("{}"), {});
    assert.notEqual(a, await fingerprintOf("/q/.mcp.json", bytes("{}"), {}));
    assert.notEqual(a, await fingerprintOf("/p/.mcp.json", bytes("{ }"), {}));
  });
  await t.step("separates path from bytes so they cannot slide into each other", async () => {
    assert.notEqual(
      await fingerprintOf("/a", bytes("b{}"), {}),
      await fingerprintOf("/ab", bytes("{}"), {}),
    );
  });
  await t.step("is the fixed no-config value without a file", async () => {
    assert.equal(await fingerprintOf(null, bytes(""), {}), NO_CONFIG_FINGERPRINT);
    assert.match(NO_CONFIG_FINGERPRINT, /^[0-9a-f]{16}$/);
  });
  const text = bytes(
    `{ "mcpServers": { "a": { "url": "https://x.test/\${HOST}", ` +
      `"headers": { "Authorization": "Bearer \${MY_TOKEN}" } } } }`,
  );
  const fp = (env: Record<string, string | undefined>) => fingerprintOf("/p/.mcp.json", text, env);
  await t.step("changes when a referenced variable's value changes", async () => {
    const first = await fp({ HOST: "h", MY_TOKEN: "first" });
    assert.notEqual(first, await fp({ HOST: "h", MY_TOKEN: "second" }));
    assert.equal(first, await fp({ MY_TOKEN: "first", HOST: "h" }), "order of env does not matter");
  });
  await t.step("is unchanged when an unreferenced variable changes", async () => {
    assert.equal(
      await fp({ HOST: "h", MY_TOKEN: "t", OTHER: "1" }),
      await fp({ HOST: "h", MY_TOKEN: "t", OTHER: "2" }),
    );
  });
  await t.step("tells an unset variable from an empty one", async () => {
    assert.notEqual(await fp({ HOST: "h" }), await fp({ HOST: "h", MY_TOKEN: "" }));
  });
  await t.step("cannot slide one variable's value into the next", async () => {
    assert.notEqual(
      await fp({ HOST: "h\0MY_TOKEN=x", MY_TOKEN: undefined }),
      await fp({ HOST: "h", MY_TOKEN: "x" }),
    );
  });
});

Deno.test("contentHashOf() covers the path and bytes, not the environment", async () => {
  const text = bytes(`{ "mcpServers": { "a": { "command": "\${CMD}" } } }`);
  const hash = await contentHashOf("/p/.mcp.json", text);
  assert.match(hash, /^[0-9a-f]{16}$/);
  assert.notEqual(hash, await contentHashOf("/q/.mcp.json", text));
  assert.notEqual(
    await fingerprintOf("/p/.mcp.json", text, { CMD: "a" }),
    await fingerprintOf("/p/.mcp.json", text, { CMD: "b" }),
  );
  assert.equal(await contentHashOf(null, text), NO_CONFIG_FINGERPRINT);
});

Deno.test("loadConfig() gives a changed token its own fingerprint, same contentHash", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-fp-" }));
  try {
    await Deno.writeTextFile(
      `${dir}/.mcp.json`,
      `{ "mcpServers": { "a": { "command": "x", "env": { "T": "\${MY_TOKEN}" } } } }`,
    );
    const first = await loadConfig({ cwd: dir, env: { HOME: dir, MY_TOKEN: "first" } });
    const second = await loadConfig({ cwd: dir, env: { HOME: dir, MY_TOKEN: "second" } });
    assert.notEqual(first.fingerprint, second.fingerprint);
    assert.match(first.contentHash ?? "", /^[0-9a-f]{16}$/);
    assert.equal(first.contentHash, second.contentHash);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fingerprintFile() behaviour", async (t) => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-fp-" }));
  try {
    const file = join(dir, "config.json");
    const link = join(dir, ".mcp.json");
    await Deno.writeTextFile(file, `{"mcpServers":{}}`);
    await Deno.symlink(file, link);
    await t.step("resolves symlinks so a link and its target share a fingerprint", async () => {
      const direct = await fingerprintFile(file, { env: {} });
      const viaLink = await fingerprintFile(link, { env: {} });
      assert.equal(viaLink.realPath, file);
      assert.equal(viaLink.fingerprint, direct.fingerprint);
      assert.equal(direct.fingerprint, await fingerprintOf(file, direct.bytes, {}));
      assert.equal(direct.contentHash, await contentHashOf(file, direct.bytes));
    });
    await t.step("changes when the file is edited", async () => {
      const before = await fingerprintFile(file, { env: {} });
      await Deno.writeTextFile(file, `{"mcpServers":{"a":{"command":"x"}}}`);
      assert.notEqual((await fingerprintFile(file, { env: {} })).fingerprint, before.fingerprint);
    });
    await t.step("rejects when the signal is already aborted", async () => {
      await assert.rejects(() => fingerprintFile(file, { env: {}, signal: AbortSignal.abort() }));
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fingerprintOf() remembers recent inputs by their bytes: one byte changed in place is a new hash", async () => {
  const bytes = new TextEncoder().encode('{"mcpServers":{"a":{"command":"x"}}}');
  const first = await fingerprintOf("/p/.mcp.json", bytes, {});
  assert.equal(await fingerprintOf("/p/.mcp.json", bytes, {}), first);
  // The same array edited in place: the remembered input is a copy, so it cannot match.
  bytes[bytes.length - 3] = "y".charCodeAt(0);
  assert.notEqual(await fingerprintOf("/p/.mcp.json", bytes, {}), first);
});
