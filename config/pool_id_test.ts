import assert from "node:assert/strict";
import { poolId, type PoolIdentity } from "./pool_id.ts";
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
