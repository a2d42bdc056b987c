import assert from "node:assert/strict";
import { needsListing, readSchemaCache, writeSchemaCache } from "./schema_cache.ts";
import { failedListing } from "../discovery/cache_entry.ts";
import type { SchemaCacheFile } from "../discovery/types.ts";
import { VERSION } from "../version.ts";

const cache = (mcpxVersion: string): SchemaCacheFile => ({
  version: 1,
  mcpxVersion,
  configPath: "/p/.mcp.json",
  servers: {
    s: {
      listedAt: "2026-01-01T00:00:00Z",
      tools: [{ name: "t", inputSchema: { type: "object" }, declaration: "function t(): void;" }],
    },
  },
});

Deno.test("readSchemaCache() keeps declarations of this version and drops another version's", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/schemas-x.json`;
    await writeSchemaCache(path, cache(VERSION));
    assert.equal(readSchemaCache(path)?.servers.s.tools[0].declaration, "function t(): void;");
    await Deno.writeTextFile(path, JSON.stringify(cache("0.0.0-other")));
    const read = readSchemaCache(path);
    assert.equal(read?.servers.s.tools[0].name, "t", "the schemas stay");
    assert.equal(read?.servers.s.tools[0].declaration, undefined);
    // The same version, but declarations in an older layout (no declarationFormat).
    await Deno.writeTextFile(path, JSON.stringify(cache(VERSION)));
    assert.equal(readSchemaCache(path)?.servers.s.tools[0].declaration, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readSchemaCache() reads a missing or corrupt file as a cold cache", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(readSchemaCache(`${dir}/none.json`), null);
    await Deno.writeTextFile(`${dir}/bad.json`, "{ not json");
    assert.equal(readSchemaCache(`${dir}/bad.json`), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("needsListing() lists a failed server again only once its cooldown is over", () => {
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  const failed = {
    tools: [],
    poolId: "p",
    error: failedListing(undefined, { message: "boom" }, t0),
  };
  assert.equal(needsListing(undefined, "p", t0), true, "never seen");
  assert.equal(needsListing(failed, "p", t0 + 1_000), false, "in its cooldown");
  assert.equal(needsListing(failed, "p", t0 + 30_000), true, "cooldown over");
  assert.equal(needsListing(failed, "other", t0 + 1_000), true, "another process now");
  const listed = { tools: [], poolId: "p", listedAt: "2025-12-31T00:00:00Z", error: failed.error };
  assert.equal(needsListing(listed, "p", t0 + 60_000), false, "keeps its tools until refresh");
});
