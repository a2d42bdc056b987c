import assert from "node:assert/strict";
import { join } from "node:path";
import { fingerprintFile, fingerprintOf, NO_CONFIG_FINGERPRINT } from "./fingerprint.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("await fingerprintOf() behaviour", async (t) => {
  await t.step("is 16 hex chars and stable", async () => {
    const a = await fingerprintOf("/p/.mcp.json", bytes("{}"));
    assert.match(a, /^[0-9a-f]{16}$/);
    assert.equal(a, await fingerprintOf("/p/.mcp.json", bytes("{}")));
  });
  await t.step("changes with the path and with the bytes", async () => {
    const a = await fingerprintOf("/p/.mcp.json", bytes("{}"));
    assert.notEqual(a, await fingerprintOf("/q/.mcp.json", bytes("{}")));
    assert.notEqual(a, await fingerprintOf("/p/.mcp.json", bytes("{ }")));
  });
  await t.step("separates path from bytes so they cannot slide into each other", async () => {
    assert.notEqual(
      await fingerprintOf("/a", bytes("b{}")),
      await fingerprintOf("/ab", bytes("{}")),
    );
  });
  await t.step("is the fixed no-config value without a file", async () => {
    assert.equal(await fingerprintOf(null, bytes("")), NO_CONFIG_FINGERPRINT);
    assert.match(NO_CONFIG_FINGERPRINT, /^[0-9a-f]{16}$/);
  });
});

Deno.test("fingerprintFile() behaviour", async (t) => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-fp-" }));
  try {
    const file = join(dir, "config.json");
    const link = join(dir, ".mcp.json");
    await Deno.writeTextFile(file, `{"mcpServers":{}}`);
    await Deno.symlink(file, link);
    await t.step("resolves symlinks so a link and its target share a fingerprint", async () => {
      const direct = await fingerprintFile(file);
      const viaLink = await fingerprintFile(link);
      assert.equal(viaLink.realPath, file);
      assert.equal(viaLink.fingerprint, direct.fingerprint);
      assert.equal(direct.fingerprint, await fingerprintOf(file, direct.bytes));
    });
    await t.step("changes when the file is edited", async () => {
      const before = await fingerprintFile(file);
      await Deno.writeTextFile(file, `{"mcpServers":{"a":{"command":"x"}}}`);
      assert.notEqual((await fingerprintFile(file)).fingerprint, before.fingerprint);
    });
    await t.step("rejects when the signal is already aborted", async () => {
      await assert.rejects(() => fingerprintFile(file, { signal: AbortSignal.abort() }));
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
