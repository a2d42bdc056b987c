import assert from "node:assert/strict";
import { parseConfig } from "./parse.ts";
import { ConfigError } from "../core/errors.ts";
import { listingIdOf, type ServerSpec } from "./types.ts";
import { poolId } from "./pool_id.ts";

const FILE = "/p/.mcp.json";

/** The one server of a configuration whose entry for "s" is `entry`. */
function server(entry: Record<string, unknown>): ServerSpec {
  return parseConfig(JSON.stringify({ mcpServers: { s: { command: "x", ...entry } } }), FILE, {})
    .servers[0];
}

/** The message of the ConfigError parsing `entry` throws. */
function problem(entry: Record<string, unknown>): string {
  try {
    server(entry);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  throw new Error("no ConfigError");
}

Deno.test("readProtocol() reads mcpx.protocol and spec 002's protocol.mode", () => {
  const cases: [Record<string, unknown>, string | undefined][] = [
    [{}, undefined],
    [{ mcpx: { protocol: "legacy" } }, "legacy"],
    [{ mcpx: { protocol: "auto" } }, "auto"],
    [{ mcpx: { protocol: "preferModern" } }, "preferModern"],
    [{ mcpx: { protocol: "modern" } }, "modern"],
    [{ protocol: { mode: "stateful" } }, "legacy"],
    [{ protocol: { mode: "auto" } }, "preferModern"],
    [{ protocol: { mode: "stateless" } }, "modern"],
    [{ protocol: { mode: "stateless" }, mcpx: { protocol: "modern" } }, "modern"],
  ];
  for (const [entry, mode] of cases) {
    assert.equal(server(entry).protocol, mode, JSON.stringify(entry));
  }
});

Deno.test("readProtocol() names a bad value and the accepted ones", () => {
  const bad = problem({ mcpx: { protocol: "modren" } });
  assert.match(bad, /mcpServers\.s\.mcpx\.protocol/);
  assert.match(bad, /got "modren"/);
  assert.match(bad, /"legacy", "auto", "preferModern", "modern"/);
  assert.match(bad, /did you mean `modern`/);
  const mode = problem({ protocol: { mode: "stateles" } });
  assert.match(mode, /protocol\.mode/);
  assert.match(mode, /"stateful", "auto", "stateless"/);
  assert.match(problem({ protocol: "stateless" }), /must be an object with "mode"/);
  assert.match(
    problem({ protocol: { mode: "stateful" }, mcpx: { protocol: "modern" } }),
    /is "modern" but "protocol": \{ "mode": "stateful" \} means "legacy"; remove one/,
  );
});

Deno.test("poolId and listingId change with a protocol mode the entry sets, and only then", () => {
  const plain = server({});
  const auto = server({ mcpx: { protocol: "auto" } });
  const modern = server({ mcpx: { protocol: "modern" } });
  assert.notEqual(plain.poolId, modern.poolId);
  assert.notEqual(plain.listingId, modern.listingId);
  assert.notEqual(auto.poolId, modern.poolId);
  // An entry without the key keeps the identities mcpx gave it before modes existed.
  assert.equal(poolId({ ...modern, protocol: undefined }), plain.poolId);
  assert.equal(listingIdOf({ ...modern, protocol: undefined }), plain.listingId);
});

Deno.test("an alias speaks in its target's protocol mode unless its own block sets one", () => {
  const { servers } = parseConfig(
    JSON.stringify({
      mcpServers: {
        t: { command: "x", mcpx: { protocol: "modern" } },
        a: { aliasOf: "t" },
        b: { aliasOf: "t", mcpx: { protocol: "preferModern" } },
      },
    }),
    FILE,
    {},
  );
  assert.deepEqual(servers.map((s) => s.protocol), ["modern", "modern", "preferModern"]);
});
