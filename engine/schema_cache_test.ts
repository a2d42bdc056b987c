import assert from "node:assert/strict";
import {
  entryFileName,
  loadEntries,
  needsListing,
  readSchemaCache,
  readSchemaIndex,
  readServerEntry,
  schemaEntriesDir,
  seedFromSiblings,
  writeSchemaCache,
} from "./schema_cache.ts";
import { DECLARATION_FORMAT, failedListing, LISTING_FORMAT } from "../discovery/cache_entry.ts";
import type { SchemaCacheFile, SchemaIndex } from "../discovery/types.ts";
import { VERSION } from "../core/version.ts";

const cache = (mcpxVersion: string): SchemaCacheFile => ({
  version: 2,
  mcpxVersion,
  configPath: "/p/.mcp.json",
  servers: {
    s: {
      listedAt: "2026-01-01T00:00:00Z",
      tools: [{
        name: "take-shot",
        description: "Takes screenshots",
        inputSchema: { type: "object" },
        declaration: "function take_shot(): void;",
      }],
    },
  },
});

/** A temporary cache folder, removed when disposed. */
async function tempDir(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir();
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("writeSchemaCache() writes an index without schemas, with search words, and a file per server", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.dir}/schemas-x.json`;
  await writeSchemaCache(path, cache(VERSION));
  const index = readSchemaIndex(path)!;
  const tool = index.servers.s.tools[0];
  assert.equal(tool.name, "take-shot");
  assert.equal("inputSchema" in tool, false, "no schema in the index");
  assert.deepEqual(tool.terms, { name: ["take", "shot"], description: ["take", "screenshot"] });
  assert.equal(index.servers.s.file, `${schemaEntriesDir(path)}/${entryFileName("s")}`);
  const whole = readServerEntry(index.servers.s.file!)!;
  assert.deepEqual(whole.tools[0].inputSchema, { type: "object" });
  assert.deepEqual(readSchemaCache(path)?.servers, cache(VERSION).servers);
});

Deno.test("writeSchemaCache() writes again only the files of the servers that changed", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.dir}/schemas-x.json`;
  const two = {
    ...cache(VERSION),
    servers: { a: cache(VERSION).servers.s, b: cache(VERSION).servers.s },
  };
  await writeSchemaCache(path, two);
  const fileOf = (name: string) => `${schemaEntriesDir(path)}/${entryFileName(name)}`;
  Deno.writeTextFileSync(fileOf("a"), "left alone");
  two.servers.b = { ...two.servers.b, listedAt: "2026-02-02T00:00:00Z" };
  await writeSchemaCache(path, two, undefined, ["b"]);
  assert.equal(Deno.readTextFileSync(fileOf("a")), "left alone");
  assert.equal(readServerEntry(fileOf("b"))?.listedAt, "2026-02-02T00:00:00Z");
  assert.equal(readSchemaIndex(path)?.servers.b.listedAt, "2026-02-02T00:00:00Z");
});

Deno.test("readServerEntry() keeps declarations of this version and drops another version's", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.dir}/schemas-x.json`;
  await writeSchemaCache(path, cache(VERSION));
  const file = readSchemaIndex(path)!.servers.s.file!;
  assert.equal(readServerEntry(file)?.tools[0].declaration, "function take_shot(): void;");
  const server = cache(VERSION).servers.s;
  const stamp = {
    version: 2,
    declarationFormat: DECLARATION_FORMAT,
    listingFormat: LISTING_FORMAT,
  };
  Deno.writeTextFileSync(file, JSON.stringify({ ...stamp, mcpxVersion: "0.0.0-other", server }));
  const read = readServerEntry(file);
  assert.equal(read?.tools[0].name, "take-shot", "the schemas stay");
  assert.equal(read?.tools[0].declaration, undefined);
  // The same version, but declarations in an older layout (no declarationFormat).
  Deno.writeTextFileSync(
    file,
    JSON.stringify({ version: 2, mcpxVersion: VERSION, listingFormat: LISTING_FORMAT, server }),
  );
  assert.equal(readServerEntry(file)?.tools[0].declaration, undefined);
});

Deno.test("an entry an older listing layout stored is no entry: its server is listed again", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.dir}/schemas-x.json`;
  // As listing layout 1 stored a task-only tool: skipped, with a reason no longer true.
  const old = cache(VERSION);
  old.servers.s.skipped = [{ name: "slow", reason: "mcpx does not make task-augmented calls yet" }];
  await writeSchemaCache(path, old);
  const file = readSchemaIndex(path)!.servers.s.file!;
  for (const written of [path, file]) {
    const { listingFormat: _, ...older } = JSON.parse(Deno.readTextFileSync(written));
    Deno.writeTextFileSync(written, JSON.stringify(older));
  }
  assert.deepEqual(readSchemaIndex(path)?.servers, {});
  assert.equal(readServerEntry(file), undefined);
  assert.equal(needsListing(readSchemaIndex(path)?.servers.s, "any"), true);
});

Deno.test("readSchemaIndex() drops search words another version worked out", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.dir}/schemas-x.json`;
  await writeSchemaCache(path, cache(VERSION));
  const raw = JSON.parse(Deno.readTextFileSync(path));
  Deno.writeTextFileSync(path, JSON.stringify({ ...raw, mcpxVersion: "0.0.0-other" }));
  const tool = readSchemaIndex(path)!.servers.s.tools[0];
  assert.equal(tool.name, "take-shot");
  assert.equal(tool.terms, undefined);
});

Deno.test("readSchemaCache() reads a missing, corrupt or single-file (version 1) cache as cold", async () => {
  await using tmp = await tempDir();
  const { dir } = tmp;
  assert.equal(readSchemaCache(`${dir}/none.json`), null);
  await Deno.writeTextFile(`${dir}/bad.json`, "{ not json");
  assert.equal(readSchemaCache(`${dir}/bad.json`), null);
  // As an earlier mcpx wrote it: every schema in one file.
  await Deno.writeTextFile(`${dir}/v1.json`, JSON.stringify({ ...cache(VERSION), version: 1 }));
  assert.equal(readSchemaCache(`${dir}/v1.json`), null);
  assert.equal(readSchemaIndex(`${dir}/v1.json`), null);
});

Deno.test("loadEntries() leaves out only the servers whose files are missing or damaged", async (t) => {
  await using tmp = await tempDir();
  const path = `${tmp.dir}/schemas-x.json`;
  const good = cache(VERSION).servers.s;
  const names = ["a", "b"];
  const fileOf = (name: string) => `${schemaEntriesDir(path)}/${entryFileName(name)}`;
  const stamp = { version: 2, mcpxVersion: VERSION, declarationFormat: DECLARATION_FORMAT };
  const cases: [string, (file: string) => void][] = [
    ["a missing file", (file) => Deno.removeSync(file)],
    ["a file that is not JSON", (file) => Deno.writeTextFileSync(file, "{ not json")],
    [
      "an entry of the wrong shape",
      (file) => Deno.writeTextFileSync(file, JSON.stringify({ ...stamp, server: { tools: null } })),
    ],
    [
      "a file of another layout",
      (file) =>
        Deno.writeTextFileSync(file, JSON.stringify({ ...stamp, version: 1, server: good })),
    ],
  ];
  for (const [what, damage] of cases) {
    await t.step(what, async () => {
      await writeSchemaCache(path, { ...cache(VERSION), servers: { a: good, b: good } });
      damage(fileOf("b"));
      const index = readSchemaIndex(path)!;
      assert.deepEqual(Object.keys(index.servers), names, "the index lists both");
      loadEntries(index, ["b"]);
      assert.deepEqual(Object.keys(index.servers), ["a"], "b reads as never listed");
      assert.equal(index.servers.a.file !== undefined, true, "a was not asked for");
      assert.deepEqual(Object.keys(readSchemaCache(path)?.servers ?? {}), ["a"]);
    });
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

Deno.test("readSchemaIndex() leaves out only the entries of the wrong shape", async (t) => {
  await using tmp = await tempDir();
  const path = `${tmp.dir}/schemas-x.json`;
  await writeSchemaCache(path, cache(VERSION));
  const written = JSON.parse(Deno.readTextFileSync(path));
  const good = written.servers.s;
  const cases: [string, unknown, string[]][] = [
    ['"servers": null', null, []],
    ['"servers": a list', [good], []],
    ["a null entry", { s: good, n: null }, ["s"]],
    ["tools not a list", { s: good, bad: { ...good, tools: null } }, ["s"]],
    ["a tool without a name", { s: good, bad: { ...good, tools: [{ title: "t" }] } }, ["s"]],
    ["search words of the wrong type", {
      s: good,
      bad: { ...good, tools: [{ name: "t", terms: { name: "t", description: [] } }] },
    }, ["s"]],
    ["an error without a time", { s: good, bad: { ...good, error: { message: "x" } } }, ["s"]],
    ["no file", { s: good, bad: { ...good, file: undefined } }, ["s"]],
    ["a file outside its folder", { s: good, bad: { ...good, file: "../../etc/passwd" } }, ["s"]],
  ];
  for (const [what, servers, names] of cases) {
    await t.step(what, () => {
      Deno.writeTextFileSync(path, JSON.stringify({ ...written, servers }));
      const read = readSchemaIndex(path);
      assert.deepEqual(Object.keys(read?.servers ?? {}), names);
      assert.equal(read?.configPath, "/p/.mcp.json");
    });
  }
  await t.step("a file cut short keeps the entries before the cut", () => {
    const whole = JSON.stringify({ ...written, servers: { a: good, b: good, c: good } });
    Deno.writeTextFileSync(path, whole.slice(0, whole.lastIndexOf('"c"') + 10));
    assert.deepEqual(Object.keys(readSchemaIndex(path)?.servers ?? {}), ["a", "b"]);
  });
});

Deno.test("seedFromSiblings() reads past a sibling cache whose servers is null", async () => {
  await using tmp = await tempDir();
  const { dir } = tmp;
  const good = { ...cache(VERSION).servers.s, listingId: "p" };
  await writeSchemaCache(`${dir}/schemas-bbbb.json`, {
    ...cache(VERSION),
    servers: { s: good, u: good },
  });
  // The newest sibling: its servers null.
  await writeSchemaCache(`${dir}/schemas-aaaa.json`, cache(VERSION));
  const raw = JSON.parse(Deno.readTextFileSync(`${dir}/schemas-aaaa.json`));
  Deno.writeTextFileSync(`${dir}/schemas-aaaa.json`, JSON.stringify({ ...raw, servers: null }));
  // A sibling whose server file is damaged is not seeded from when whole entries are wanted.
  Deno.writeTextFileSync(`${dir}/schemas-bbbb/${entryFileName("u")}`, "{ not json");
  const specs = [
    { name: "s", listingId: "p" },
    { name: "t", listingId: "p" },
    { name: "u", listingId: "p" },
  ];
  const whole: SchemaCacheFile = { ...cache(VERSION), servers: {} };
  const seeded = seedFromSiblings(
    dir,
    "cccc",
    whole,
    specs,
    (e) => e.file ? readServerEntry(e.file) : undefined,
  );
  assert.equal(seeded, 1);
  assert.deepEqual(Object.keys(whole.servers), ["s"]);
  assert.deepEqual(whole.servers.s.tools[0].inputSchema, { type: "object" });
  // The CLI keeps the index entries, pointing at the sibling's files.
  const index: SchemaIndex = { ...cache(VERSION), servers: {} };
  assert.equal(seedFromSiblings(dir, "cccc", index, specs, (e) => e), 2);
  assert.equal(index.servers.s.file, `${dir}/schemas-bbbb/${entryFileName("s")}`);
});

Deno.test("writeSchemaCache() keeps a server's instructions in its file, out of the index", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.dir}/schemas-x.json`;
  const written = cache(VERSION);
  written.servers.s.instructions = "Use take-shot sparingly.";
  await writeSchemaCache(path, written);
  assert.equal(JSON.parse(Deno.readTextFileSync(path)).servers.s.instructions, undefined);
  assert.equal(readSchemaIndex(path)?.servers.s.instructions, undefined);
  assert.equal(readSchemaCache(path)?.servers.s.instructions, "Use take-shot sparingly.");
});

Deno.test("writeSchemaCache() keeps a server's laid-out types blocks in its file, out of the index; another version's are dropped", async () => {
  await using tmp = await tempDir();
  const path = `${tmp.dir}/schemas-x.json`;
  const written = cache(VERSION);
  written.servers.s.blocks = [{ key: "k", bytes: 4 }];
  written.servers.s.rendered = [{ key: "k", text: "text" }];
  await writeSchemaCache(path, written);
  assert.equal(JSON.parse(Deno.readTextFileSync(path)).servers.s.rendered, undefined);
  assert.deepEqual(readSchemaIndex(path)?.servers.s.blocks, [{ key: "k", bytes: 4 }]);
  const file = readSchemaIndex(path)!.servers.s.file!;
  assert.deepEqual(readServerEntry(file)?.rendered, [{ key: "k", text: "text" }]);
  // Laid out by another version, like its declarations: not shown.
  const stamp = {
    version: 2,
    declarationFormat: DECLARATION_FORMAT,
    listingFormat: LISTING_FORMAT,
  };
  Deno.writeTextFileSync(
    file,
    JSON.stringify({ ...stamp, mcpxVersion: "0.0.0-other", server: written.servers.s }),
  );
  assert.equal(readServerEntry(file)?.rendered, undefined);
  // A damaged list makes the entry unreadable, as any field of the wrong shape does.
  Deno.writeTextFileSync(
    file,
    JSON.stringify({
      ...stamp,
      mcpxVersion: VERSION,
      server: { ...written.servers.s, rendered: [{ key: "k", text: 1 }] },
    }),
  );
  assert.equal(readServerEntry(file), undefined);
});
