import assert from "node:assert/strict";
import { parseConfig } from "./parse.ts";
import { ConfigError } from "../core/errors.ts";
import type { ServerSpec } from "./types.ts";
import { poolId } from "./pool_id.ts";

const FILE = "/p/.mcp.json";

/** The one server of a configuration whose entry for "s" is `entry`, under `top`. */
function server(entry: Record<string, unknown>, top: Record<string, unknown> = {}): ServerSpec {
  const text = JSON.stringify({ ...top, mcpServers: { s: { command: "x", ...entry } } });
  return parseConfig(text, FILE, {}).servers[0];
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

Deno.test("readLogLevel() reads mcpx.logLevel; absent asks for nothing", () => {
  assert.equal(server({}).logLevel, undefined);
  for (const level of ["debug", "info", "notice", "warning", "error", "critical", "alert"]) {
    assert.equal(server({ mcpx: { logLevel: level } }).logLevel, level);
  }
});

Deno.test("readLogLevel() names a bad level, the accepted ones and the nearest", () => {
  const message = problem({ mcpx: { logLevel: "warn" } });
  assert.match(
    message,
    /mcpServers\.s\.mcpx\.logLevel: must be one of "debug", .*"emergency", got "warn"/,
  );
  assert.match(message, /did you mean `warning`\?/);
  assert.match(problem({ mcpx: { logLevel: 3 } }), /got 3/);
});

Deno.test("resetTimeoutOnProgress is a pool key: server block, pool block, and false overrides", () => {
  assert.equal(server({}).pool.resetTimeoutOnProgress, undefined);
  assert.equal(
    server({ mcpx: { resetTimeoutOnProgress: true } }).pool.resetTimeoutOnProgress,
    true,
  );
  const inherited = server({}, { pool: { resetTimeoutOnProgress: true } });
  assert.equal(inherited.pool.resetTimeoutOnProgress, true);
  const overridden = server({ mcpx: { resetTimeoutOnProgress: false } }, {
    pool: { resetTimeoutOnProgress: true },
  });
  assert.equal(overridden.pool.resetTimeoutOnProgress, undefined);
  // false is the default: the pool keeps the identity it had without the key.
  assert.equal(poolId(server({ mcpx: { resetTimeoutOnProgress: false } })), poolId(server({})));
  assert.match(
    problem({ mcpx: { resetTimeoutOnProgress: "yes" } }),
    /mcpx\.resetTimeoutOnProgress: must be true or false, got "yes"/,
  );
});
