import assert from "node:assert/strict";
import { parseConfig } from "./parse.ts";
import { compileToolFilter } from "./tool_filter.ts";
import { ConfigError } from "../core/errors.ts";
import { MAX_CONFIG_DEPTH } from "./_depth.ts";

const FILE = "/p/.mcp.json";

/** The names of `tools` a server of `text` shows. */
function visible(text: string, server: string, tools: string[]): string[] {
  const spec = parseConfig(text, FILE, {}).servers.find((s) => s.name === server)!;
  const show = compileToolFilter(spec.toolFilter);
  return tools.filter(show);
}

const TOOLS = ["read_file", "read_secret", "list_dir", "write_file", "delete_file"];

Deno.test("parseConfig() tool lists: the pool block's and a server's combine", async (t) => {
  await t.step("extraIncludeTools adds to the include list inherited from the pool block", () => {
    const text = `{ "pool": { "tools": ["read_*"] }, "mcpServers": {
      "a": { "command": "a", "mcpx": { "extraIncludeTools": ["list_*", "/^write_/"] } },
      "b": { "command": "b" } } }`;
    assert.deepEqual(visible(text, "a", TOOLS), [
      "read_file",
      "read_secret",
      "list_dir",
      "write_file",
    ]);
    assert.deepEqual(visible(text, "b", TOOLS), ["read_file", "read_secret"]);
  });

  await t.step("a server's own tools replace the pool block's, and its extras add to them", () => {
    const text = `{ "pool": { "tools": ["read_*"] }, "mcpServers": {
      "a": { "command": "a", "mcpx": { "tools": ["list_dir"], "extraIncludeTools": ["delete_*"] } } } }`;
    assert.deepEqual(visible(text, "a", TOOLS), ["list_dir", "delete_file"]);
  });

  await t.step("excludeTools wins over tools and extraIncludeTools, from either block", () => {
    const text =
      `{ "pool": { "tools": ["read_*"], "excludeTools": ["read_secret"] }, "mcpServers": {
      "a": { "command": "a", "mcpx": { "extraIncludeTools": ["write_file", "list_dir"], "excludeTools": ["list_*"] } } } }`;
    assert.deepEqual(visible(text, "a", TOOLS), ["read_file", "write_file"]);
  });

  await t.step("extraIncludeTools with no include list anywhere warns that it does nothing", () => {
    const text =
      `{ "mcpServers": { "a": { "command": "a", "mcpx": { "extraIncludeTools": ["x"] } } } }`;
    const { warnings, servers } = parseConfig(text, FILE, {});
    assert.deepEqual(servers[0].toolFilter, { exclude: [] });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /mcpServers\.a\.mcpx\.extraIncludeTools: .*does nothing/);
  });

  await t.step("a bad pattern in the pool block names its path", () => {
    const text = `{ "pool": { "extraIncludeTools": ["/(/"] }, "mcpServers": {} }`;
    assert.throws(() => parseConfig(text, FILE, {}), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /pool\.extraIncludeTools\[0\]: is not a valid regular expression/);
      return true;
    });
  });
});

Deno.test("parseConfig() refuses mode in the pool block, naming sharing and scope", () => {
  const text = `{ "pool": { "mode": "exclusive" }, "mcpServers": {} }`;
  assert.throws(() => parseConfig(text, FILE, {}), (e: unknown) => {
    assert.ok(e instanceof ConfigError);
    assert.match(e.message, /pool\.mode: unknown key, got "exclusive"; "mode" was split into/);
    assert.match(e.message, /"sharing"/);
    assert.match(e.message, /"scope"/);
    return true;
  });
});

Deno.test("parseConfig() an alias is where its target is in the profiles unless it says otherwise", () => {
  const text = `{ "mcpServers": {
    "chrome": { "command": "c", "mcpx": { "profiles": ["web"], "default": false } },
    "peek": { "aliasOf": "chrome" },
    "shown": { "aliasOf": "chrome", "mcpx": { "default": true } },
    "mine": { "aliasOf": "chrome", "mcpx": { "profiles": ["ops"] } },
    "fs": { "command": "f" },
    "fsAlias": { "aliasOf": "fs" } } }`;
  const byName = Object.fromEntries(
    parseConfig(text, FILE, {}).servers.map((s) => [s.name, [s.default, s.profiles]]),
  );
  assert.deepEqual(byName.peek, [false, ["web"]]);
  assert.deepEqual(byName.shown, [true, ["web"]]);
  assert.deepEqual(byName.mine, [false, ["ops"]]);
  assert.deepEqual(byName.fsAlias, [true, []]);
});

Deno.test("parseConfig() an unset ${VAR} makes only its server unavailable, naming the variable", () => {
  const text = `{ "mcpServers": {
    "gh": { "command": "gh-mcp", "env": { "TOKEN": "\${GH_TOKEN}", "B": "\${OTHER}" } },
    "web": { "url": "https://x.test/mcp", "headers": { "A": "Bearer \${KEY}" } },
    "fs": { "command": "fs-mcp", "args": ["\${HOME}"] } } }`;
  const { servers } = parseConfig(text, FILE, { HOME: "/h" });
  const [gh, web, fs] = servers;
  assert.equal(fs.unavailable, undefined);
  assert.deepEqual(fs.args, ["/h"]);
  assert.equal(gh.unavailable?.code, "unset-variable");
  assert.deepEqual(gh.unavailable?.variables, ["GH_TOKEN", "OTHER"]);
  assert.match(gh.unavailable!.message, /^\$\{GH_TOKEN\} and \$\{OTHER\} are not set/);
  assert.match(gh.unavailable!.message, /server "gh", at mcpServers\.gh\.env\.TOKEN/);
  assert.match(gh.unavailable!.message, /export GH_TOKEN and OTHER/);
  assert.deepEqual(web.unavailable?.variables, ["KEY"]);
  assert.match(web.unavailable!.message, /mcpServers\.web\.headers\.A/);
});

Deno.test("parseConfig() a malformed ${ is still a problem of the whole file", () => {
  const text = `{ "mcpServers": { "a": { "command": "x", "args": ["\${"] } } }`;
  assert.throws(() => parseConfig(text, FILE, {}), /has a \$\{ without a closing \}/);
});

Deno.test("parseConfig() refuses a document nested 20,000 levels deep, naming where", () => {
  const deep = `{ "mcpServers": {},\n  "x": ${"[".repeat(20_000)}${"]".repeat(20_000)} }`;
  assert.throws(
    () => parseConfig(deep, "/p/.mcp.json", {}),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.message.includes(`more than ${MAX_CONFIG_DEPTH} levels deep at /p/.mcp.json:2:`),
  );
});

Deno.test("parseConfig() counts no brackets inside strings and comments", () => {
  const brackets = "[".repeat(MAX_CONFIG_DEPTH + 1);
  const text = `{ "mcpServers": { "a": { "command": "x", "args": ["${brackets}"] } },
    // ${brackets}
    /* ${brackets}
       ${brackets} */
    "pool": {} }`;
  assert.deepEqual(parseConfig(text, null, {}).servers[0].args, [brackets]);
});

Deno.test("parseConfig() marks the pool block's own tool patterns as pooled", () => {
  const text = `{ "pool": { "excludeTools": ["delete_*", "write_*"] }, "mcpServers": {
    "a": { "command": "a", "mcpx": { "excludeTools": ["write_*", "get_env"] } } } }`;
  const spec = parseConfig(text, FILE, {}).servers[0];
  assert.deepEqual(spec.toolFilter.pooled, ["delete_*"]);
  assert.deepEqual(visible(text, "a", ["get-env", "delete_x", "read"]), ["read"]);
});

Deno.test("parseConfig() reports a failing file's bad settings with its other problems, in one round", () => {
  const text = JSON.stringify({
    mcpServers: { a: { command: 42 } },
    hooks: { timeout: "soon", concurrency: -1 },
  });
  assert.throws(
    () => parseConfig(text, "/p/mcpx.json", {}),
    (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /3 problems:/);
      assert.match(error.message, /mcpServers\.a\.command: must be a non-empty string/);
      assert.match(error.message, /hooks\.timeout: must be a duration/);
      assert.match(error.message, /hooks\.concurrency: must be a whole number/);
      return true;
    },
  );
  // A file with only a bad setting parses; resolveSettings() reports it, as before.
  assert.doesNotThrow(() =>
    parseConfig(JSON.stringify({ hooks: { timeout: "soon" } }), "/p/m.json")
  );
});
