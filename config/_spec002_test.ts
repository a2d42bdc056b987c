import assert from "node:assert/strict";
import { parseConfig } from "./parse.ts";
import { compileToolFilter } from "./tool_filter.ts";
import { ConfigError } from "../core/errors.ts";
import { DEFAULT_POOL } from "./types.ts";

const FILE = "/p/mcp.jsonc";
const TOOLS = ["read_file", "read_secret", "list_dir", "write_file", "delete_file"];

function server(text: string, name = "a") {
  const { servers, warnings } = parseConfig(text, FILE, {});
  return { spec: servers.find((s) => s.name === name)!, warnings };
}

function visible(text: string): string[] {
  return TOOLS.filter(compileToolFilter(server(text).spec.toolFilter));
}

function problems(text: string): string {
  try {
    parseConfig(text, FILE, {});
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  throw new Error("expected a ConfigError");
}

Deno.test("parseConfig() reads spec 002's allowedTools and disabledTools", async (t) => {
  await t.step("allowedTools is the include list, without a warning", () => {
    const text =
      `{ "mcpServers": { "a": { "command": "a", "allowedTools": ["read_*", "list_*"] } } }`;
    assert.deepEqual(visible(text), ["read_file", "read_secret", "list_dir"]);
    assert.deepEqual(server(text).warnings, []);
  });
  await t.step("disabledTools wins over allowedTools", () => {
    const text = `{ "mcpServers": { "a": { "command": "a", // JSONC, as spec 002 allows
      "allowedTools": ["read_*"], "disabledTools": ["read_secret", "delete_*"], } } }`;
    assert.deepEqual(visible(text), ["read_file"]);
  });
  await t.step("disabledTools adds to mcpx.excludeTools and the pool block's", () => {
    const text = `{ "pool": { "excludeTools": ["write_*"] }, "mcpServers": { "a": {
      "command": "a", "disabledTools": ["delete_*"], "mcpx": { "excludeTools": ["read_secret"] } } } }`;
    assert.deepEqual(visible(text), ["read_file", "list_dir"]);
  });
  await t.step("allowedTools beside a different mcpx.tools is a problem naming both", () => {
    const message = problems(`{ "mcpServers": { "a": { "command": "a",
      "allowedTools": ["read_*"], "mcpx": { "tools": ["list_*"] } } } }`);
    assert.match(message, /mcpServers\.a\.allowedTools.*mcpServers\.a\.mcpx\.tools.*keep one/);
  });
  await t.step("the same list under both spellings is accepted", () => {
    const text = `{ "mcpServers": { "a": { "command": "a",
      "allowedTools": ["read_*"], "mcpx": { "tools": ["read_*"] } } } }`;
    assert.deepEqual(visible(text), ["read_file", "read_secret"]);
  });
  await t.step("a list that is not strings is a problem", () => {
    assert.match(
      problems(`{ "mcpServers": { "a": { "command": "a", "disabledTools": "delete_*" } } }`),
      /disabledTools/,
    );
  });
});

Deno.test("parseConfig() reads spec 002's lifecycle as the idle timeout", async (t) => {
  await t.step("keep-alive with idleTimeoutMs sets pool.idleTimeoutMs", () => {
    const { spec, warnings } = server(`{ "mcpServers": { "a": { "command": "a",
      "lifecycle": { "mode": "keep-alive", "idleTimeoutMs": 300000 } } } }`);
    assert.equal(spec.pool.idleTimeoutMs, 300_000);
    assert.deepEqual(warnings, []);
  });
  await t.step("keep-alive alone keeps the default", () => {
    const { spec } = server(
      `{ "mcpServers": { "a": { "command": "a", "lifecycle": { "mode": "keep-alive" } } } }`,
    );
    assert.equal(spec.pool.idleTimeoutMs, DEFAULT_POOL.idleTimeoutMs);
  });
  await t.step("it beats the pool block's idleTimeout", () => {
    const { spec } = server(`{ "pool": { "idleTimeout": "1h" }, "mcpServers": { "a": {
      "command": "a", "lifecycle": { "mode": "keep-alive", "idleTimeoutMs": 1000 } } } }`);
    assert.equal(spec.pool.idleTimeoutMs, 1000);
  });
  const bad: [string, string, RegExp][] = [
    ["another mode", `{ "mode": "per-call" }`, /lifecycle\.mode: must be "keep-alive"/],
    ["a string of ms", `{ "idleTimeoutMs": "5m" }`, /idleTimeoutMs: must be a whole number/],
    ["an unknown key", `{ "idle": 5 }`, /lifecycle\.idle: unknown key/],
    ["not an object", `"keep-alive"`, /lifecycle: must be an object/],
  ];
  for (const [name, block, pattern] of bad) {
    await t.step(`${name} is a problem`, () => {
      assert.match(
        problems(`{ "mcpServers": { "a": { "command": "a", "lifecycle": ${block} } } }`),
        pattern,
      );
    });
  }
  await t.step("a different mcpx.idleTimeout is a problem naming both", () => {
    assert.match(
      problems(`{ "mcpServers": { "a": { "command": "a", "mcpx": { "idleTimeout": "1m" },
        "lifecycle": { "mode": "keep-alive", "idleTimeoutMs": 5000 } } } }`),
      /idleTimeoutMs: is 5000 ms but mcpServers\.a\.mcpx\.idleTimeout is 60000 ms/,
    );
  });
});

Deno.test("parseConfig() spec 002 tool globs match the identifier mcpx shows", () => {
  const text = `{ "mcpServers": { "a": { "command": "a",
    "allowedTools": ["get_*"], "disabledTools": ["get_env"] } } }`;
  const shown = ["get-env", "get-sum", "echo"].filter(
    compileToolFilter(server(text).spec.toolFilter),
  );
  assert.deepEqual(shown, ["get-sum"]);
});
