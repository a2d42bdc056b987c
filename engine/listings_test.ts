import assert from "node:assert/strict";
import { Daemon } from "./engine.ts";
import { closeLog, openDurableLog, setLogLevel } from "./log.ts";
import { remoteFixture, remoteSpec } from "./_remote_fixture.ts";
import { TypeGenerator } from "./type_generator.ts";
import { toolDeclaration } from "../discovery/typescript.ts";
import { listLogFiles } from "../logs/writer.ts";
import type { CachedTool } from "../discovery/types.ts";
import { readSchemaCache, writeSchemaCache } from "./schema_cache.ts";
import type { DeclarationRequest } from "../discovery/declarations_wire.ts";
import type { PoolSettings } from "../config/types.ts";
import { DEFAULT_SELECTION } from "../config/profiles.ts";
import { toolTerms } from "../discovery/search.ts";
import { Listings } from "./listings.ts";
import { Redactor } from "../core/redact.ts";

/**
 * A daemon whose one server, `remote`, is a remote fixture, its durable log in
 * `<dir>/logs`; stopped (before the fixture) on dispose.
 */
async function listingWorld(typeGenerator?: TypeGenerator, pool: Partial<PoolSettings> = {}) {
  const fixture = await remoteFixture();
  const dir = await Deno.makeTempDir({ prefix: "mcpx-listings-" });
  openDurableLog({
    dir: `${dir}/logs`,
    source: "daemon-test-1",
    maxFileSize: 1 << 20,
    retentionMs: 0,
  });
  setLogLevel("info");
  const cachePath = `${dir}/schemas.json`;
  const daemon = new Daemon({
    config: {
      path: null,
      realPath: null,
      fingerprint: "0".repeat(16),
      servers: [remoteSpec(fixture.url, pool)],
      document: {},
    },
    cachePath,
    sessionsPath: `${dir}/sessions.json`,
    mode: "foreground",
    env: {},
    ...(typeGenerator ? { listings: { typeGenerator } } : {}),
  });
  return {
    daemon,
    /** The tools the cache (its index and `remote`'s file) holds for `remote`. */
    cachedTools: (): Promise<CachedTool[]> =>
      Promise.resolve(readSchemaCache(cachePath)?.servers.remote?.tools ?? []),
    /** The durable log's records so far (closes the log). */
    records: async (): Promise<Record<string, unknown>[]> => {
      closeLog();
      const files = listLogFiles(`${dir}/logs`);
      const text = (await Promise.all(files.map((f) => Deno.readTextFile(`${dir}/logs/${f}`))))
        .join("");
      return text.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
    },
    async [Symbol.asyncDispose]() {
      await daemon.shutdown();
      closeLog();
      await fixture[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("Daemon.list() stores the declarations the type generator's process made", async () => {
  await using w = await listingWorld();
  assert.deepEqual(await w.daemon.list(["remote"]), { remote: { tools: 5 } });
  await w.daemon.declared();
  const tools = await w.cachedTools();
  assert.equal(tools.length, 5);
  for (const tool of tools) {
    assert.equal(tool.declaration, await toolDeclaration(tool, tool.name), tool.name);
  }
  assert.deepEqual((await w.records()).filter((r) => r.event === "server.types"), []);
});

Deno.test("Daemon.list() keeps a server's tools callable, without declarations, and warns naming it, when the type generator crashes", async () => {
  const crashing = new TypeGenerator({
    command: {
      command: Deno.execPath(),
      args: ["eval", `console.error("error: out of schemas"); Deno.exit(7);`],
    },
  });
  await using w = await listingWorld(crashing);
  assert.deepEqual(await w.daemon.list(["remote"]), { remote: { tools: 5 } });
  await w.daemon.declared();
  const tools = await w.cachedTools();
  assert.deepEqual(tools.map((t) => t.name), ["echo", "hang", "fail", "gone", "invalid"]);
  assert.ok(tools.every((t) => t.declaration === undefined), "no declaration is stored");
  const answer = await w.daemon.call("remote", "echo", { text: "still here" }, {});
  assert.deepEqual((answer as { content: unknown }).content, [{
    type: "text",
    text: "still here",
  }]);

  const warnings = (await w.records()).filter((r) => r.event === "server.types");
  assert.equal(warnings.length, 1, JSON.stringify(warnings));
  const [warning] = warnings;
  assert.equal(warning.level, "warn");
  const attrs = warning.attrs as Record<string, unknown>;
  assert.equal(attrs.server, "remote");
  assert.equal(attrs.reason, "crashed");
  assert.equal(
    warning.msg,
    "remote: TypeScript declarations not stored: the type generator exited with code 7: " +
      "error: out of schemas; `mcpx types` makes them when asked",
  );
});

/** A type generator that answers only when `open()` is called (as a cold one is slow to load). */
class HeldGenerator extends TypeGenerator {
  asked = Promise.withResolvers<void>();
  #gate = Promise.withResolvers<void>();
  open(): void {
    this.#gate.resolve();
  }
  override async declare(requests: DeclarationRequest[]): Promise<(string | null)[]> {
    this.asked.resolve();
    await this.#gate.promise;
    return requests.map(({ fn }) => `function ${fn}(): void;`);
  }
}

Deno.test("Daemon.list() answers and gives its per-call instance back before the declarations are made", async () => {
  const held = new HeldGenerator();
  await using w = await listingWorld(held, { scope: "call" });
  const listed = w.daemon.list(["remote"]);
  await held.asked.promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answer = await Promise.race([
    listed,
    new Promise((resolve) => timer = setTimeout(() => resolve("no answer in 10 s"), 10_000)),
  ]);
  clearTimeout(timer);
  assert.deepEqual(answer, { remote: { tools: 5 } });
  // The generator has not answered: the listing stopped its instance, and list() wrote the tools.
  assert.deepEqual(w.daemon.status()[0].instances, []);
  const before = await w.cachedTools();
  assert.deepEqual(before.map((t) => t.name), ["echo", "hang", "fail", "gone", "invalid"]);
  assert.ok(before.every((t) => t.declaration === undefined), "no declaration yet");

  held.open();
  await w.daemon.declared();
  const after = await w.cachedTools();
  assert.deepEqual(after.map((t) => t.declaration), [
    "function echo(): void;",
    "function hang(): void;",
    "function fail(): void;",
    "function gone(): void;",
    "function invalid(): void;",
  ]);
});

Deno.test("Daemon.list() of many servers at once writes the cache a few times, not once per server", async () => {
  await using fixture = await remoteFixture();
  const dir = await Deno.makeTempDir({ prefix: "mcpx-listings-" });
  const names = Array.from({ length: 20 }, (_, i) => `r${i}`);
  // Each write takes a whole copy of the cache: one per listing held 100 copies at once with
  // 100 servers (433 MiB of daemon RSS, against 121 MiB with writes that wait their turn).
  const writes: string[][] = [];
  // Declarations are held back: what is counted is the listings' writes.
  const held = new HeldGenerator();
  const daemon = new Daemon({
    config: {
      path: null,
      realPath: null,
      fingerprint: "0".repeat(16),
      servers: names.map((name) => ({
        ...remoteSpec(fixture.url),
        name,
        namespace: name,
        poolId: `${name}-pool`,
        listingId: `${name}-listing`,
      })),
      document: {},
    },
    cachePath: `${dir}/schemas.json`,
    sessionsPath: `${dir}/sessions.json`,
    mode: "foreground",
    env: {},
    listings: {
      typeGenerator: held,
      write: (path, cache, redactor, changed) => {
        writes.push([...changed ?? []]);
        return writeSchemaCache(path, cache, redactor, changed);
      },
    },
  });
  try {
    const listed = await daemon.list(names);
    assert.deepEqual(Object.keys(listed).sort(), [...names].sort());
    assert.ok(writes.length <= 4, `${writes.length} writes for ${names.length} listings`);
    // Every listing was written, each once.
    assert.deepEqual(writes.flat().sort(), [...names].sort());
    assert.deepEqual(
      Object.keys(readSchemaCache(`${dir}/schemas.json`)?.servers ?? {}).sort(),
      [
        ...names,
      ].sort(),
    );
  } finally {
    held.open();
    await daemon.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Daemon.view() carries each tool's search words, worked out once per cache change", async () => {
  await using w = await listingWorld();
  await w.daemon.list(["remote"]);
  const tools = w.daemon.view(DEFAULT_SELECTION).namespaces[0].tools;
  assert.equal(tools.length, 5);
  for (const tool of tools) {
    // As the cache's index stores them, so the daemon's search ranks as the CLI's own does.
    assert.deepEqual(
      tool.terms,
      toolTerms({ name: tool.tool, description: tool.description }),
      tool.tool,
    );
  }
  // The same view, and so the same words, until the cache changes.
  assert.equal(w.daemon.view(DEFAULT_SELECTION).namespaces[0].tools[0], tools[0]);
});

Deno.test("a refresh that meets a listing on the server's word with nothing different lists again and stores it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-refresh-" });
  const spec = remoteSpec("http://127.0.0.1:9/mcp");
  let gate: Promise<void> | undefined;
  let listed = 0;
  const tool = { name: "echo", description: "echo", inputSchema: { type: "object" } };
  // One running instance of the server, as a pool holds it; listing through it can be held.
  const instance = {
    startedAt: 0,
    scopeKey: { kind: "global" },
    protocolRevision: "2025-11-25",
    client: {
      getServerVersion: () => ({ name: "remote", version: "1" }),
      getInstructions: () => undefined,
      getServerCapabilities: () => ({}),
    },
    async listTools() {
      listed++;
      await gate;
      return { tools: [tool], skipped: [] };
    },
  };
  const listings = new Listings({
    config: { path: null, realPath: null, fingerprint: "0", servers: [spec], document: {} },
    cachePath: `${dir}/schemas.json`,
    redactor: new Redactor([]),
    pool: () => ({ lease: () => Promise.resolve({ instance, release() {} }) }) as never,
    span: () => "span",
  });
  try {
    await listings.refresh([spec], () => undefined, false);
    const first = listings.entry(spec)!.listedAt!;
    // The server says its tools changed; while that listing runs, the user asks for a refresh.
    let release!: () => void;
    gate = new Promise((resolve) => release = resolve);
    const onWord = listings.list(spec, instance as never);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const refreshed = listings.refresh([spec], () => undefined, false);
    release();
    gate = undefined;
    await onWord;
    await refreshed;
    assert.equal(listed, 3, "the refresh listed after the listing on the server's word");
    assert.ok(listings.entry(spec)!.listedAt! > first, "and stored its own listing");
  } finally {
    await listings.close();
    await Deno.remove(dir, { recursive: true });
  }
});
