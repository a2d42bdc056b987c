import assert from "node:assert/strict";
import { parseConfig } from "./parse.ts";
import { listingOf } from "./types.ts";

/** The one server `fs` of a configuration whose entry is `entry`, parsed. */
function fs(entry: Record<string, unknown>) {
  const text = JSON.stringify({
    mcpServers: { fs: { command: "npx", args: ["-y", "fs"], ...entry } },
  });
  return parseConfig(text, "/p/.mcp.json", {}).servers[0];
}

Deno.test("listingOf() keeps its identity when only pool settings change, unlike poolId", () => {
  const plain = fs({});
  assert.match(listingOf(plain).listingId, /^[0-9a-f]{16}$/);
  for (const mcpx of [{ sharing: "exclusive" }, { callTimeout: "5m" }, { scope: "session" }]) {
    const pooled = fs({ mcpx });
    assert.notEqual(pooled.poolId, plain.poolId, JSON.stringify(mcpx));
    assert.equal(listingOf(pooled).listingId, listingOf(plain).listingId, JSON.stringify(mcpx));
  }
});

Deno.test("listingOf() changes its identity with what changes the server's answer", () => {
  const plain = listingOf(fs({})).listingId;
  const changed = [
    { args: ["-y", "fs", "/tmp"] },
    { env: { ROOT: "/tmp" } },
    { cwd: "/tmp" },
    { command: "node" },
  ];
  for (const entry of changed) {
    assert.notEqual(listingOf(fs(entry)).listingId, plain, JSON.stringify(entry));
  }
});

Deno.test("listingOf() reads an alias's listing from its target, under the target's identity", () => {
  const text = JSON.stringify({
    mcpServers: {
      fs: { command: "npx", args: ["-y", "fs"] },
      peek: { aliasOf: "fs", mcpx: { sharing: "exclusive", tools: ["read_*"] } },
    },
  });
  const [target, alias] = parseConfig(text, "/p/.mcp.json", {}).servers;
  assert.deepEqual(listingOf(alias), listingOf(target));
  assert.equal(listingOf(alias).name, "fs");
});
