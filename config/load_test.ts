import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../core/errors.ts";
import { NO_CONFIG_FINGERPRINT } from "./fingerprint.ts";
import { loadConfig, readConfigLayers } from "./load.ts";
import { parseConfig } from "./parse.ts";
import { resolveSettings } from "./resolve_settings.ts";
import { DEFAULT_POOL } from "./types.ts";
import { MAX_CONFIG_BYTES } from "./config_file.ts";

const FILE = "/x/.mcp.json";

/** A config with one server `fs` whose entry is `entry` (JSON text). */
const fs = (entry: string) => `{ "mcpServers": { "fs": ${entry} } }`;
/** A config with one server `fs` whose `mcpx` block is `block` (JSON text). */
const fsMcpx = (block: string) => fs(`{ "command": "npx", "mcpx": ${block} }`);

Deno.test("parseConfig() rejects broken configs naming file, path, value and fix", async (t) => {
  const cases: { name: string; text: string; env?: Record<string, string>; parts: string[] }[] = [
    {
      name: "JSON syntax error with line:col and the parser's name",
      text: `{\n  "mcpServers": {\n    "fs": { "command": "x" "args": [] }\n  }\n}`,
      parts: [`${FILE}:3:`, "CommaExpected", "fix the text"],
    },
    {
      name: "unquoted key",
      text: `{ mcpServers: {} }`,
      parts: [`${FILE}:1:3`, "InvalidSymbol", "double quotes"],
    },
    { name: "empty file", text: "  \n", parts: ['""', "mcpServers"] },
    { name: "comments only", text: "// nothing yet\n", parts: ["no value", "mcpServers"] },
    { name: "top level not an object", text: "[]", parts: ["[]", "write"] },
    {
      name: "mcpServers not an object",
      text: `{ "mcpServers": ["fs"] }`,
      parts: ["mcpServers", '["fs"]', "write"],
    },
    { name: "server not an object", text: fs(`"npx"`), parts: ["mcpServers.fs", '"npx"', "write"] },
    {
      name: "command not a string",
      text: fs(`{ "command": 42 }`),
      parts: ["mcpServers.fs.command", "42", `e.g. "npx"`],
    },
    {
      name: "args not an array",
      text: fs(`{ "command": "npx", "args": "-y pkg" }`),
      parts: ["mcpServers.fs.args", '"-y pkg"', "write e.g."],
    },
    {
      name: "args not all strings",
      text: fs(`{ "command": "npx", "args": ["-y", 3] }`),
      parts: ["mcpServers.fs.args[1]", "got 3", "quote it"],
    },
    {
      name: "env value not a string",
      text: fs(`{ "command": "npx", "env": { "PORT": 8080 } }`),
      parts: ["mcpServers.fs.env.PORT", "8080", "quote it"],
    },
    {
      name: "env not an object",
      text: fs(`{ "command": "npx", "env": ["A=1"] }`),
      parts: ["mcpServers.fs.env", '["A=1"]', "write e.g."],
    },
    {
      name: "both command and url",
      text: fs(`{ "command": "npx", "url": "https://x.test/mcp" }`),
      parts: ["mcpServers.fs", '"npx"', '"https://x.test/mcp"', "keep"],
    },
    {
      name: "neither command nor url",
      text: fs(`{ "args": ["x"] }`),
      parts: ["mcpServers.fs", '["args"]', "add"],
    },
    {
      name: "bad url",
      text: fs(`{ "url": "not a url" }`),
      parts: ["mcpServers.fs.url", '"not a url"', "https://example.com/mcp"],
    },
    {
      name: "non-http url",
      text: fs(`{ "url": "ftp://x.test/" }`),
      parts: ["mcpServers.fs.url", '"ftp://x.test/"', "https://"],
    },
    {
      name: "bad transport",
      text: fs(`{ "url": "https://x.test/mcp", "transport": "websocket" }`),
      parts: ["mcpServers.fs.transport", '"websocket"', "leave it out"],
    },
    {
      name: "bad type with suggestion",
      text: fs(`{ "url": "https://x.test/mcp", "type": "streamable_http" }`),
      parts: ["mcpServers.fs.type", '"streamable_http"', "did you mean `streamable-http`"],
    },
    {
      name: "type stdio with a url",
      text: fs(`{ "url": "https://x.test/mcp", "type": "stdio" }`),
      parts: ["mcpServers.fs.type", '"stdio"', "use"],
    },
    {
      name: "type and transport disagree",
      text: fs(`{ "url": "https://x.test/mcp", "type": "sse", "transport": "http" }`),
      parts: ["mcpServers.fs.transport", '"http"', "remove one"],
    },
    {
      name: "headers value not a string",
      text: fs(`{ "url": "https://x.test/mcp", "headers": { "X-Retries": 1 } }`),
      parts: ["mcpServers.fs.headers.X-Retries", "got 1", "quote it"],
    },
    {
      name: "cwd not a string",
      text: fs(`{ "command": "npx", "cwd": false }`),
      parts: ["mcpServers.fs.cwd", "false", "directory"],
    },
    {
      name: "disabled not a boolean",
      text: fs(`{ "command": "npx", "disabled": "yes" }`),
      parts: ["mcpServers.fs.disabled", '"yes"', "true"],
    },
    {
      name: "mcpx block not an object",
      text: fs(`{ "command": "npx", "mcpx": true }`),
      parts: ["mcpServers.fs.mcpx", "true", "write e.g."],
    },
    {
      name: "namespace not an identifier",
      text: fsMcpx(`{ "namespace": "my-ns" }`),
      parts: ["mcpServers.fs.mcpx.namespace", '"my-ns"', '"my_ns"'],
    },
    {
      name: "namespace collision",
      text: `{ "mcpServers": { "a-b": { "command": "x" }, "a_b": { "command": "y" } } }`,
      parts: ["mcpServers.a_b", '"a_b"', '"a-b"', '"namespace"'],
    },
    {
      name: "namespace collision through mcpx.namespace",
      text: `{ "mcpServers": { "one": { "command": "x" }, "two": { "command": "y", ` +
        `"mcpx": { "namespace": "one" } } } }`,
      parts: ["mcpServers.two", '"one"', '"two"', "namespace"],
    },
    {
      name: "bad duration",
      text: fsMcpx(`{ "idleTimeout": "5 minutes" }`),
      parts: ["mcpServers.fs.mcpx.idleTimeout", '"5 minutes"', '"30m"'],
    },
    {
      name: "duration over 24 days (a timer would fire at once)",
      text: fsMcpx(`{ "startTimeout": "30d" }`),
      parts: ["mcpServers.fs.mcpx.startTimeout", '"30d"', "at most 24d (2073600000 ms)"],
    },
    {
      name: "max 0",
      text: fsMcpx(`{ "max": 0 }`),
      parts: ["mcpServers.fs.mcpx.max", "got 0", "e.g. 1"],
    },
    {
      name: "min negative",
      text: fsMcpx(`{ "min": -1 }`),
      parts: ["mcpServers.fs.mcpx.min", "got -1", "e.g. 0"],
    },
    {
      name: "min greater than max",
      text: fsMcpx(`{ "min": 3, "max": 2 }`),
      parts: ["mcpServers.fs.mcpx.min", "got 3", "lower min"],
    },
    {
      name: "bad sharing with suggestion",
      text: fsMcpx(`{ "sharing": "exclusve" }`),
      parts: ["mcpServers.fs.mcpx.sharing", '"exclusve"', "did you mean `exclusive`"],
    },
    {
      name: "bad scope with suggestion",
      text: fsMcpx(`{ "scope": "sesion" }`),
      parts: ["mcpServers.fs.mcpx.scope", '"sesion"', "did you mean `session`"],
    },
    {
      name: "bad regex in excludeTools",
      text: fsMcpx(`{ "excludeTools": ["delete_*", "/[a-/"] }`),
      parts: ["mcpServers.fs.mcpx.excludeTools[1]", '"/[a-/"', "fix the pattern"],
    },
    {
      name: "bad regex flags in tools",
      text: fsMcpx(`{ "tools": ["/x/q"] }`),
      parts: ["mcpServers.fs.mcpx.tools[0]", '"/x/q"', "fix the pattern"],
    },
    {
      name: "empty tool pattern",
      text: fsMcpx(`{ "tools": [""] }`),
      parts: ["mcpServers.fs.mcpx.tools[0]", '""', "glob"],
    },
    {
      name: "unknown mcpx key with suggestion",
      text: fsMcpx(`{ "exludeTools": ["a"] }`),
      parts: ["mcpServers.fs.mcpx.exludeTools", '["a"]', "did you mean `excludeTools`"],
    },
    {
      name: "the old mode key",
      text: fsMcpx(`{ "mode": "session" }`),
      parts: ["mcpServers.fs.mcpx.mode", '"session"', '"sharing"', "scope"],
    },
    {
      name: "tags not an array",
      text: fsMcpx(`{ "tags": "web" }`),
      parts: ["mcpServers.fs.mcpx.tags", '"web"', "write e.g."],
    },
    {
      name: "toolTags not an object",
      text: fsMcpx(`{ "toolTags": ["image"] }`),
      parts: ["mcpServers.fs.mcpx.toolTags", '["image"]', "write"],
    },
    {
      name: "toolTags entry not a string array",
      text: fsMcpx(`{ "toolTags": { "shot": "image" } }`),
      parts: ["mcpServers.fs.mcpx.toolTags.shot", '"image"', "write"],
    },
    {
      name: "description not a string",
      text: fsMcpx(`{ "description": 7 }`),
      parts: ["mcpServers.fs.mcpx.description", "got 7", "write one line"],
    },
    {
      name: "pool not an object",
      text: `{ "pool": "shared", "mcpServers": {} }`,
      parts: ["pool", '"shared"', "write e.g."],
    },
    {
      name: "unknown pool key with suggestion",
      text: `{ "pool": { "idleTimout": "5m" }, "mcpServers": {} }`,
      parts: ["pool.idleTimout", '"5m"', "did you mean `idleTimeout`"],
    },
    {
      name: "per-server key in the pool block",
      text: `{ "pool": { "namespace": "x" }, "mcpServers": {} }`,
      parts: ["pool.namespace", '"x"', "mcpx"],
    },
    {
      name: "bad scope in the pool block",
      text: `{ "pool": { "scope": "everywhere" }, "mcpServers": {} }`,
      parts: ["pool.scope", '"everywhere"', "pick"],
    },
    {
      name: "bad whenFull in the pool block",
      text: `{ "pool": { "whenFull": "evict_idle" }, "mcpServers": {} }`,
      parts: ["pool.whenFull", '"evict_idle"', "did you mean `evict-idle`", "makes room"],
    },
    {
      name: "bad leaseTimeout in a server's block",
      text: fsMcpx(`{ "leaseTimeout": "soon" }`),
      parts: ["mcpServers.fs.mcpx.leaseTimeout", '"soon"', "duration"],
    },
    {
      name: "pool min above a server's max",
      text:
        `{ "pool": { "min": 2 }, "mcpServers": { "fs": { "command": "x", "mcpx": { "max": 1 } } } }`,
      parts: ["mcpServers.fs.mcpx.max", "got 1", "raise max"],
    },
    {
      name: "a key written twice",
      text: `{ "mcpServers": {\n "fs": { "command": "a" },\n "fs": { "command": "b" } } }`,
      parts: ["mcpServers.fs", '"fs"', "lines 2 and 3", "remove one"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      assert.throws(() => parseConfig(c.text, FILE, c.env ?? {}), (e: unknown) => {
        assert.ok(e instanceof ConfigError, String(e));
        assert.ok(e.message.includes(FILE), `${e.message}\nlacks the file`);
        for (const part of c.parts) {
          assert.ok(e.message.includes(part), `${e.message}\nlacks ${part}`);
        }
        return true;
      });
    });
  }
});

Deno.test("parseConfig() reports every problem at once", async (t) => {
  await t.step("three typos give one error with three lines", () => {
    const text = `{ "mcpServers": {
      "a": { "command": 1 },
      "b": { "command": "x", "mcpx": { "scope": "sesion" } },
      "c": { "url": "nope" }
    } }`;
    assert.throws(() => parseConfig(text, FILE, {}), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      const lines = e.message.split("\n");
      assert.match(lines[0], /3 problems/);
      assert.equal(lines.length, 4);
      for (const path of ["mcpServers.a.command", "mcpServers.b.mcpx.scope", "mcpServers.c.url"]) {
        assert.ok(lines.some((l) => l.trim().startsWith(path)), `${e.message} lacks ${path}`);
      }
      assert.ok(e.cause instanceof AggregateError);
      assert.equal((e.cause as AggregateError).errors.length, 3);
      return true;
    });
  });
});

Deno.test("parseConfig() accepts what other hosts write", async (t) => {
  await t.step("a Claude-style .mcp.json", () => {
    const text = `{
      "mcpServers": {
        "filesystem": {
          "command": "npx",
          "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${HOME}/projects"]
        },
        "github": {
          "command": "docker",
          "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
          "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${GITHUB_TOKEN}" }
        },
        "everything": {
          "type": "http",
          "url": "http://localhost:3001/mcp",
          "headers": { "Authorization": "Bearer \${API_KEY:-none}" }
        },
        "legacy": { "type": "sse", "url": "https://mcp.example.com/events" },
        "cline-style": { "command": "uvx", "args": ["mcp-server-fetch"], "alwaysAllow": ["fetch"], "disabled": true }
      }
    }`;
    const { servers, warnings } = parseConfig(text, FILE, { HOME: "/home/u", GITHUB_TOKEN: "ghp" });
    assert.deepEqual(servers.map((s) => [s.name, s.namespace, s.transport, s.disabled]), [
      ["filesystem", "filesystem", "stdio", false],
      ["github", "github", "stdio", false],
      ["everything", "everything", "http", false],
      ["legacy", "legacy", "sse", false],
      ["cline-style", "cline_style", "stdio", true],
    ]);
    assert.equal(servers[0].args[2], "/home/u/projects");
    assert.deepEqual(servers[1].env, { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp" });
    assert.deepEqual(servers[2].headers, { Authorization: "Bearer none" });
    assert.deepEqual(servers[0].pool, DEFAULT_POOL);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /mcpServers\.cline-style\.alwaysAllow: not used by mcpx/);
  });

  await t.step("JSONC with comments, trailing commas and // inside a string", () => {
    const text = `{
      // project servers
      "mcpServers": {
        /* remote */
        "docs": { "url": "https://docs.example.com/mcp", "headers": { "X-Note": "a // b /* c */" }, },
      },
    }`;
    const { servers } = parseConfig(text, FILE, {});
    assert.equal(servers[0].url, "https://docs.example.com/mcp");
    assert.equal(servers[0].headers["X-Note"], "a // b /* c */");
  });

  await t.step("the document is returned with plain objects for settings", () => {
    const { document } = parseConfig(`{ "catalog": { "budget": 3000 } }`, FILE, {});
    assert.deepEqual(document, { catalog: { budget: 3000 } });
    const s = resolveSettings({ layers: [{ file: FILE, document }], env: {} });
    assert.equal(s.values["catalog.budget"].value, 3000);
  });

  await t.step("infers the transport when unambiguous", async (t) => {
    const cases: [string, string][] = [
      [`{ "command": "x" }`, "stdio"],
      [`{ "url": "https://h.test/mcp" }`, "http"],
      [`{ "url": "https://h.test/sse" }`, "sse"],
      [`{ "url": "https://h.test/v1/sse/" }`, "sse"],
      [`{ "url": "https://h.test/sse?x=1" }`, "sse"],
      [`{ "url": "https://h.test/ssex" }`, "http"],
      [`{ "url": "https://h.test/sse", "type": "http" }`, "http"],
      [`{ "url": "https://h.test/mcp", "transport": "sse" }`, "sse"],
      [`{ "url": "https://h.test/mcp", "type": "streamable-http" }`, "http"],
      [`{ "url": "https://h.test/mcp", "type": "streamableHttp" }`, "http"],
      [`{ "command": "x", "type": "stdio" }`, "stdio"],
    ];
    for (const [entry, transport] of cases) {
      await t.step(`${entry} → ${transport}`, () => {
        assert.equal(parseConfig(fs(entry), FILE, {}).servers[0].transport, transport);
      });
    }
  });

  await t.step("reads the whole mcpx block", () => {
    const { servers } = parseConfig(
      fsMcpx(`{
        "namespace": "files", "description": "project files", "tags": ["io"],
        "toolTags": { "read_file": ["read"] }, "tools": ["read_*", "/^list/i"],
        "excludeTools": ["delete_*"], "sharing": "exclusive", "scope": "session",
        "max": 4, "min": 1, "idleTimeout": "5m", "callTimeout": 90000, "startTimeout": "10s",
        "firstStartTimeout": "10m", "leaseTimeout": "5s", "whenFull": "wait"
      }`),
      FILE,
      {},
    );
    const s = servers[0];
    assert.equal(s.namespace, "files");
    assert.equal(s.description, "project files");
    assert.deepEqual(s.tags, ["io"]);
    assert.deepEqual(s.toolTags, { read_file: ["read"] });
    assert.deepEqual(s.toolFilter, { include: ["read_*", "/^list/i"], exclude: ["delete_*"] });
    assert.deepEqual(s.pool, {
      sharing: "exclusive",
      scope: "session",
      max: 4,
      min: 1,
      idleTimeoutMs: 300_000,
      callTimeoutMs: 90_000,
      startTimeoutMs: 10_000,
      firstStartTimeoutMs: 600_000,
      leaseTimeoutMs: 5_000,
      whenFull: "wait",
    });
  });

  await t.step("layers pool defaults: DEFAULT_POOL < pool block < server's mcpx", () => {
    const text = `{
      "pool": { "callTimeout": "2m", "scope": "session", "max": 3, "firstStartTimeout": "8m" },
      "mcpServers": {
        "a": { "command": "x" },
        "b": { "command": "y", "mcpx": { "scope": "cwd", "idleTimeout": "1m" } }
      }
    }`;
    const [a, b] = parseConfig(text, FILE, {}).servers;
    assert.deepEqual(a.pool, {
      ...DEFAULT_POOL,
      callTimeoutMs: 120_000,
      scope: "session",
      max: 3,
      firstStartTimeoutMs: 480_000,
    });
    assert.deepEqual(b.pool, {
      ...DEFAULT_POOL,
      callTimeoutMs: 120_000,
      scope: "cwd",
      max: 3,
      idleTimeoutMs: 60_000,
      firstStartTimeoutMs: 480_000,
    });
  });

  await t.step(
    "disabled on the entry or in mcpx, and a disabled server's unset ${VAR} is fine",
    () => {
      const text = `{ "mcpServers": {
      "a": { "command": "x", "disabled": true, "env": { "T": "\${UNSET_TOKEN}" } },
      "b": { "command": "y", "mcpx": { "disabled": true } },
      "c": { "command": "z", "disabled": false }
    } }`;
      const servers = parseConfig(text, FILE, {}).servers;
      assert.deepEqual(servers.map((s) => s.disabled), [true, true, false]);
      assert.equal(servers[0].env.T, "${UNSET_TOKEN}");
    },
  );

  await t.step("resolves a relative cwd against the config file's directory", () => {
    const { servers } = parseConfig(fs(`{ "command": "x", "cwd": "tools" }`), FILE, {});
    assert.equal(servers[0].cwd, "/x/tools");
  });

  await t.step("warns, without failing, about what it ignores", async (t) => {
    const cases: [string, string, RegExp][] = [
      ["no mcpServers", `{}`, /no "mcpServers" key/],
      [
        "unknown top-level key",
        `{ "mcpServer": {} }`,
        /mcpServer: unknown top-level key.*`mcpServers`/,
      ],
      [
        "a pool key outside mcpx",
        fs(`{ "command": "x", "scope": "session" }`),
        /mcpServers\.fs\.scope: not used by mcpx.*`mcpx\.scope`/,
      ],
      [
        "headers on a stdio server",
        fs(`{ "command": "x", "headers": { "A": "b" } }`),
        /headers: ignored for a stdio server/,
      ],
    ];
    for (const [name, text, pattern] of cases) {
      await t.step(name, () => {
        const { warnings } = parseConfig(text, FILE, {});
        assert.ok(warnings.some((w) => pattern.test(w)), warnings.join("\n"));
      });
    }
    await t.step("$schema and settings sections are known keys", () => {
      const text = `{ "$schema": "x", "mcpServers": {}, "catalog": {}, "daemon": {}, "pool": {} }`;
      assert.deepEqual(parseConfig(text, FILE, {}).warnings, []);
    });
  });
});

Deno.test("parseConfig() poolId behaviour", async (t) => {
  const base = { command: "c", args: ["--headless"], mcpx: { scope: "session" } };
  const idOf = (entry: unknown) =>
    parseConfig(fs(JSON.stringify(entry)), FILE, {}).servers[0].poolId;
  const same: [string, unknown][] = [
    ["tool filters", { ...base, mcpx: { ...base.mcpx, tools: ["a"], excludeTools: ["b"] } }],
    ["description", { ...base, mcpx: { ...base.mcpx, description: "read-only view" } }],
    ["tags", { ...base, mcpx: { ...base.mcpx, tags: ["web"], toolTags: { a: ["x"] } } }],
    ["namespace", { ...base, mcpx: { ...base.mcpx, namespace: "peek" } }],
    ["an explicit default", { ...base, mcpx: { ...base.mcpx, max: 8 } }],
  ];
  for (const [name, entry] of same) {
    await t.step(`is unchanged by ${name}`, () => assert.equal(idOf(entry), idOf(base)));
  }
  const different: [string, unknown][] = [
    ["args", { ...base, args: ["--headless", "--isolated"] }],
    ["scope", { ...base, mcpx: { scope: "cwd" } }],
    ["env", { ...base, env: { A: "1" } }],
    ["a timeout", { ...base, mcpx: { ...base.mcpx, callTimeout: "5s" } }],
  ];
  for (const [name, entry] of different) {
    await t.step(`changes with ${name}`, () => assert.notEqual(idOf(entry), idOf(base)));
  }
});

/** A temporary directory removed on dispose. */
async function tmpDir() {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-load-" }));
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}

Deno.test("loadConfig() behaviour", async (t) => {
  await t.step("finds the nearest file upward and fingerprints it", async () => {
    await using tmp = await tmpDir();
    const deep = join(tmp.path, "a", "b");
    await Deno.mkdir(deep, { recursive: true });
    await Deno.writeTextFile(join(tmp.path, ".mcpx.json"), fs(`{ "command": "far" }`));
    await Deno.writeTextFile(join(tmp.path, "a", ".mcp.json"), fs(`{ "command": "near" }`));
    const config = await loadConfig({ cwd: deep, env: { HOME: tmp.path } });
    assert.equal(config.path, join(tmp.path, "a", ".mcp.json"));
    assert.equal(config.realPath, config.path);
    assert.match(config.fingerprint, /^[0-9a-f]{16}$/);
    assert.equal(config.servers[0].command, "near");
    assert.deepEqual(config.warnings, []);
  });

  await t.step("resolves symlinks into realPath", async () => {
    await using tmp = await tmpDir();
    const real = join(tmp.path, "real.json");
    await Deno.writeTextFile(real, fs(`{ "command": "x" }`));
    await Deno.symlink(real, join(tmp.path, ".mcp.json"));
    const config = await loadConfig({ cwd: tmp.path, env: { HOME: tmp.path } });
    assert.equal(config.path, join(tmp.path, ".mcp.json"));
    assert.equal(config.realPath, real);
  });

  await t.step("returns zero servers and the no-config fingerprint without a file", async () => {
    await using tmp = await tmpDir();
    const config = await loadConfig({
      cwd: tmp.path,
      env: { HOME: tmp.path, XDG_CONFIG_HOME: tmp.path },
    });
    if (config.path !== null) return; // a machine-wide /etc/mcpx/config.json exists
    assert.equal(config.fingerprint, NO_CONFIG_FINGERPRINT);
    assert.deepEqual(config.servers, []);
    assert.equal(config.realPath, null);
  });

  await t.step("throws naming MCPX_CONFIG and the path when its file is missing", async () => {
    await using tmp = await tmpDir();
    const missing = join(tmp.path, "gone.json");
    await assert.rejects(
      () => loadConfig({ cwd: tmp.path, env: { MCPX_CONFIG: missing } }),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.ok(e.message.includes("MCPX_CONFIG") && e.message.includes(missing), e.message);
        return true;
      },
    );
  });

  await t.step("throws naming an explicit path that is missing", async () => {
    await using tmp = await tmpDir();
    await assert.rejects(
      () => loadConfig({ cwd: tmp.path, env: {}, path: "nope.json" }),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.ok(e.message.includes(join(tmp.path, "nope.json")), e.message);
        assert.match(e.message, /does not exist/);
        return true;
      },
    );
  });

  await t.step("reports a syntax error with file:line:column", async () => {
    await using tmp = await tmpDir();
    const file = join(tmp.path, ".mcp.json");
    await Deno.writeTextFile(file, `{\n  "mcpServers": {,}\n}`);
    await assert.rejects(
      () => loadConfig({ cwd: tmp.path, env: { HOME: tmp.path } }),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.ok(e.message.includes(`${file}:2:`), e.message);
        return true;
      },
    );
  });

  await t.step("rejects an already-aborted signal", async () => {
    await assert.rejects(() => loadConfig({ cwd: "/", env: {}, signal: AbortSignal.abort() }));
  });
});

Deno.test("readConfigLayers() behaviour", async (t) => {
  await t.step("reads every layer farthest first so the nearest wins in settings", async () => {
    await using tmp = await tmpDir();
    const home = join(tmp.path, "home");
    const proj = join(home, "proj");
    await Deno.mkdir(proj, { recursive: true });
    await Deno.writeTextFile(join(home, ".mcpx.json"), `{ "catalog": { "budget": 1000 } }`);
    await Deno.writeTextFile(join(proj, ".mcp.json"), `// c\n{ "catalog": { "budget": 3000, } }`);
    const layers = (await readConfigLayers({ cwd: proj, env: { HOME: home } }))
      .filter((l) => l.file.startsWith(tmp.path));
    assert.deepEqual(layers.map((l) => l.file), [
      join(home, ".mcpx.json"),
      join(proj, ".mcp.json"),
    ]);
    const s = resolveSettings({ layers, env: {} });
    assert.equal(s.values["catalog.budget"].value, 3000);
    assert.equal(s.values["catalog.budget"].overrode[1].value, 1000);
  });
});

Deno.test("parseConfig() gives a scoped server room for several keys unless max is set", () => {
  const { servers } = parseConfig(
    JSON.stringify({
      mcpServers: {
        global: { command: "x" },
        session: { command: "x", mcpx: { scope: "session" } },
        pinned: { command: "x", mcpx: { scope: "session", max: 2 } },
      },
    }),
    "/p/.mcp.json",
    {},
  );
  assert.deepEqual(servers.map((s) => s.pool.max), [1, 8, 2]);
});

Deno.test("loadConfig() says a directory named as the config is a directory", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      () => loadConfig({ cwd: dir, env: { HOME: dir }, path: dir }),
      /is a directory, not a configuration file; name a file such as .*\/\.mcp\.json/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadConfig() and readConfigLayers() read only regular files, at most MAX_CONFIG_BYTES", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = join(dir, "fifo.json");
    new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
    const big = join(dir, "big.json");
    Deno.writeFileSync(big, new Uint8Array(MAX_CONFIG_BYTES + 1).fill(0x20));
    const cases: [string, string, RegExp][] = [
      ["a character device", "/dev/zero", /is a character device, not a configuration file/],
      ["a named pipe", fifo, /is a named pipe \(FIFO\), not a configuration file/],
      ["a file over the cap", big, new RegExp(`more than ${MAX_CONFIG_BYTES} bytes`)],
    ];
    for (const [what, path, message] of cases) {
      await t.step(what, async () => {
        for (const load of [loadConfig, readConfigLayers]) {
          await assert.rejects(
            () => load({ cwd: dir, env: { HOME: dir }, path }),
            (e: unknown) => e instanceof ConfigError && e.file === path && message.test(e.message),
          );
        }
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A config holding server `everything` plus the entries in `more` (JSON text of members). */
const withTarget = (more: string) =>
  `{ "mcpServers": { "everything": { "command": "npx", "args": ["-y", "x"] }, ${more} } }`;

Deno.test("parseConfig() refuses broken aliases naming the entry and the fix", async (t) => {
  const cases: { name: string; text: string; parts: string[] }[] = [
    {
      name: "an alias of a missing server suggests the near name",
      text: withTarget(`"peek": { "aliasOf": "everythin" }`),
      parts: ["mcpServers.peek.aliasOf", '"everythin"', "did you mean `everything`"],
    },
    {
      name: "an alias of an alias points at the original",
      text: withTarget(
        `"peek": { "aliasOf": "everything" }, "peek2": { "aliasOf": "peek" }`,
      ),
      parts: ["mcpServers.peek2.aliasOf", "itself an alias", `"aliasOf": "everything"`],
    },
    {
      name: "an alias with its own command",
      text: withTarget(`"peek": { "aliasOf": "everything", "command": "node" }`),
      parts: ["mcpServers.peek.command", "not allowed on an alias", '"everything"'],
    },
    {
      name: "an alias with its own url",
      text: withTarget(`"peek": { "aliasOf": "everything", "url": "https://x.test/mcp" }`),
      parts: ["mcpServers.peek.url", "not allowed on an alias"],
    },
    {
      name: "aliasOf not a string",
      text: withTarget(`"peek": { "aliasOf": ["everything"] }`),
      parts: ["mcpServers.peek.aliasOf", '["everything"]', "another server"],
    },
    {
      name: "an alias of itself",
      text: withTarget(`"peek": { "aliasOf": "peek" }`),
      parts: ["mcpServers.peek.aliasOf", "itself"],
    },
    {
      name: "an alias whose namespace collides with its target's",
      text: withTarget(
        `"peek": { "aliasOf": "everything", "mcpx": { "namespace": "everything" } }`,
      ),
      parts: ["mcpServers.peek", '"everything"', "namespace"],
    },
    {
      name: "profiles not strings",
      text: fsMcpx(`{ "profiles": "web" }`),
      parts: ["mcpServers.fs.mcpx.profiles", '"web"', "array"],
    },
    {
      name: "a profile name with a comma",
      text: fsMcpx(`{ "profiles": ["web,db"] }`),
      parts: ["mcpServers.fs.mcpx.profiles[0]", '"web,db"', "without commas"],
    },
    {
      name: "default not a boolean",
      text: fsMcpx(`{ "default": "no" }`),
      parts: ["mcpServers.fs.mcpx.default", '"no"', "true or false"],
    },
    {
      name: "pool.default not a boolean",
      text: `{ "pool": { "default": 0 }, "mcpServers": {} }`,
      parts: ["pool.default", "0", "true or false"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      assert.throws(() => parseConfig(c.text, FILE, {}), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        for (const part of c.parts) {
          assert.ok(error.message.includes(part), `${part} in ${error.message}`);
        }
        return true;
      });
    });
  }
});

Deno.test("parseConfig() aliasOf behaviour", async (t) => {
  const text = withTarget(`
    "peek": { "aliasOf": "everything", "mcpx": { "tools": ["echo"], "tags": ["peek"] } },
    "iso": { "aliasOf": "everything", "mcpx": { "scope": "session", "description": "mine" } }`);
  const [target, peek, iso] = parseConfig(text, FILE, {}).servers;
  await t.step("takes the target's process", () => {
    assert.equal(peek.command, "npx");
    assert.deepEqual(peek.args, ["-y", "x"]);
    assert.deepEqual(peek.aliasOf, {
      server: "everything",
      poolId: target.poolId,
      listingId: target.listingId,
    });
  });
  await t.step("keeps its own filter, tags and namespace", () => {
    assert.deepEqual(peek.toolFilter, { include: ["echo"], exclude: [] });
    assert.deepEqual(peek.tags, ["peek"]);
    assert.equal(peek.namespace, "peek");
    assert.deepEqual(target.toolFilter, { exclude: [] });
  });
  await t.step("with the same leasing shares the target's pool", () => {
    assert.equal(peek.poolId, target.poolId);
  });
  await t.step("with another scope gets a pool of its own", () => {
    assert.notEqual(iso.poolId, target.poolId);
    assert.equal(iso.pool.scope, "session");
    assert.equal(iso.description, "mine");
  });
  await t.step(
    "runs a disabled target, whose unset variables then make the alias unavailable",
    () => {
      const off = `{ "mcpServers": {
      "t": { "command": "npx", "args": ["\${NEEDED}"], "disabled": true },
      "a": { "aliasOf": "t" } } }`;
      const [t1, a1] = parseConfig(off, FILE, {}).servers;
      assert.equal(t1.disabled, true);
      assert.deepEqual(a1.unavailable?.variables, ["NEEDED"]);
      const [t0, a] = parseConfig(off, FILE, { NEEDED: "v" }).servers;
      assert.equal(t0.disabled, true);
      assert.equal(a.disabled, false);
      assert.equal(a.unavailable, undefined);
      assert.deepEqual(a.args, ["v"]);
    },
  );
});

Deno.test("parseConfig() profiles and default", () => {
  const text = `{ "pool": { "default": false }, "mcpServers": {
    "a": { "command": "a", "mcpx": { "profiles": ["web"] } },
    "b": { "command": "b", "mcpx": { "default": true } } } }`;
  const [a, b] = parseConfig(text, FILE, {}).servers;
  assert.deepEqual([a.profiles, a.default], [["web"], false]);
  assert.deepEqual([b.profiles, b.default], [[], true]);
  const [plain] = parseConfig(fs(`{ "command": "x" }`), FILE, {}).servers;
  assert.deepEqual([plain.profiles, plain.default], [[], true]);
});
