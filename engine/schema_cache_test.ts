import assert from "node:assert/strict";
import {
  needsListing,
  readSchemaCache,
  seedFromSiblings,
  writeSchemaCache,
} from "./schema_cache.ts";
import { DECLARATION_FORMAT, failedListing } from "../discovery/cache_entry.ts";
import type { SchemaCacheFile } from "../discovery/types.ts";
import { VERSION } from "../core/version.ts";

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
    listingId: "p",
    error: failedListing(undefined, { message: "boom" }, t0),
  };
  assert.equal(needsListing(undefined, "p", t0), true, "never seen");
  assert.equal(needsListing(failed, "p", t0 + 1_000), false, "in its cooldown");
  assert.equal(needsListing(failed, "p", t0 + 30_000), true, "cooldown over");
  assert.equal(needsListing(failed, "other", t0 + 1_000), true, "another process now");
  const listed = {
    tools: [],
    listingId: "p",
    listedAt: "2025-12-31T00:00:00Z",
    error: failed.error,
  };
  assert.equal(needsListing(listed, "p", t0 + 60_000), false, "keeps its tools until refresh");
  const { listingId: _, ...older } = listed;
  assert.equal(needsListing(older, "p", t0 + 60_000), true, "recorded under another identity");
});

Deno.test("readSchemaCache() leaves out only the entries of the wrong shape", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/schemas-x.json`;
    const good = cache(VERSION).servers.s;
    const cases: [string, unknown, string[]][] = [
      ['"servers": null', null, []],
      ['"servers": a list', [good], []],
      ["a null entry", { s: good, n: null }, ["s"]],
      ["tools not a list", { s: good, bad: { tools: null } }, ["s"]],
      ["a tool without a name", { s: good, bad: { tools: [{ inputSchema: {} }] } }, ["s"]],
      ["an error without a time", { s: good, bad: { tools: [], error: { message: "x" } } }, ["s"]],
    ];
    for (const [what, servers, names] of cases) {
      await t.step(what, () => {
        Deno.writeTextFileSync(path, JSON.stringify({ ...cache(VERSION), servers }));
        const read = readSchemaCache(path);
        assert.deepEqual(Object.keys(read?.servers ?? {}), names);
        assert.equal(read?.configPath, "/p/.mcp.json");
      });
    }
    await t.step("a file cut short keeps the entries before the cut", () => {
      const whole = JSON.stringify({
        ...cache(VERSION),
        servers: { a: good, b: good, c: good },
      });
      Deno.writeTextFileSync(path, whole.slice(0, whole.lastIndexOf('"c"') + 10));
      assert.deepEqual(Object.keys(readSchemaCache(path)?.servers ?? {}), ["a", "b"]);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("seedFromSiblings() reads past a sibling cache whose servers is null", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // As this version writes it: nothing is regenerated on the way in.
    const current = { ...cache(VERSION), declarationFormat: DECLARATION_FORMAT };
    Deno.writeTextFileSync(
      `${dir}/schemas-aaaa.json`,
      JSON.stringify({ ...current, servers: null }),
    );
    const good = { ...cache(VERSION).servers.s, listingId: "p" };
    Deno.writeTextFileSync(
      `${dir}/schemas-bbbb.json`,
      JSON.stringify({ ...current, servers: { s: good, t: { tools: "no" } } }),
    );
    const mine: SchemaCacheFile = { ...cache(VERSION), servers: {} };
    const seeded = seedFromSiblings(dir, "cccc", mine, [
      { name: "s", listingId: "p" },
      { name: "t", listingId: "p" },
    ]);
    assert.equal(seeded, 1);
    assert.deepEqual(Object.keys(mine.servers), ["s"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
