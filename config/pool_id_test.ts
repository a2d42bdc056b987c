import assert from "node:assert/strict";
import { fnv1a64, poolId, type PoolIdentity } from "./pool_id.ts";
import { DEFAULT_POOL } from "./types.ts";

const base: PoolIdentity = {
  transport: "stdio",
  command: "chrome-devtools-mcp",
  args: ["--headless"],
  env: { A: "1", B: "2" },
  headers: {},
  pool: { ...DEFAULT_POOL },
};

Deno.test("poolId() behaviour", async (t) => {
  await t.step("is 16 hex chars", () => assert.match(poolId(base), /^[0-9a-f]{16}$/));
  await t.step("ignores key order in env and pool", () => {
    const reordered = { ...base, env: { B: "2", A: "1" }, pool: { ...base.pool } };
    assert.equal(poolId(reordered), poolId(base));
  });
  await t.step("ignores presentation fields passed alongside", () => {
    const withPresentation = {
      ...base,
      name: "x",
      namespace: "x",
      description: "d",
      tags: ["t"],
      toolFilter: { include: ["a"], exclude: [] },
    };
    assert.equal(poolId(withPresentation), poolId(base));
  });
  const changes: [string, Partial<PoolIdentity>][] = [
    ["command", { command: "other" }],
    ["args", { args: ["--isolated"] }],
    ["args order", { args: ["--headless", "x"] }],
    ["env", { env: { A: "1", B: "3" } }],
    ["cwd", { cwd: "/tmp" }],
    ["transport", { transport: "http" }],
    ["url", { url: "http://x/mcp" }],
    ["headers", { headers: { Authorization: "x" } }],
    ["scope", { pool: { ...DEFAULT_POOL, scope: "session" } }],
    ["sharing", { pool: { ...DEFAULT_POOL, sharing: "exclusive" } }],
    ["max", { pool: { ...DEFAULT_POOL, max: 2 } }],
    ["callTimeout", { pool: { ...DEFAULT_POOL, callTimeoutMs: 1 } }],
  ];
  for (const [name, change] of changes) {
    await t.step(`changes with ${name}`, () => {
      assert.notEqual(poolId({ ...base, ...change }), poolId(base));
    });
  }
});

/** The definition: FNV-1a with 64-bit BigInt arithmetic (what poolId used before). */
function fnv1a64BigInt(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

Deno.test("fnv1a64() equals 64-bit FNV-1a computed with BigInt, so pool ids stay as they were", () => {
  const texts = ["", "a", "foobar", "é€😀\u0000\uffff", JSON.stringify(base)];
  // Random code units, all 16 bits of each.
  let seed = 7;
  for (let n = 0; n < 200; n++) {
    let text = "";
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      text += String.fromCharCode(seed & 0xffff);
    }
    texts.push(text);
  }
  for (const text of texts) assert.equal(fnv1a64(text), fnv1a64BigInt(text), JSON.stringify(text));
  // The published test vector of FNV-1a 64 for "a".
  assert.equal(fnv1a64("a"), "af63dc4c8601ec8c");
});
