import assert from "node:assert/strict";
import { NotFoundError } from "../core/errors.ts";
import { cachedTool, cacheOf, serverSpec } from "./_fixtures.ts";
import { findNamespace, findTool, namespacesFromCache } from "./view.ts";
import type { SchemaIndex } from "./types.ts";

const servers = [
  serverSpec("everything", {
    description: "reference server",
    tags: ["demo"],
    toolTags: { echo: ["text"] },
  }),
  serverSpec("chrome-devtools", { toolFilter: { exclude: ["close_*"] } }),
  serverSpec("off", { disabled: true }),
  serverSpec("unlisted"),
];
const cache = cacheOf({
  everything: [cachedTool("echo", "Echoes back the input"), {
    ...cachedTool("add"),
    title: "Add numbers",
  }],
  "chrome-devtools": [cachedTool("take-screenshot"), cachedTool("close_page"), cachedTool("click")],
  off: [cachedTool("secret")],
});

Deno.test("namespacesFromCache() builds one namespace per enabled server", () => {
  const { namespaces, problems } = namespacesFromCache(servers, cache);
  assert.deepEqual(problems, []);
  assert.deepEqual(namespaces.map((ns) => [ns.namespace, ns.tools.map((t) => t.fn)]), [
    ["everything", ["echo", "add"]],
    ["chrome_devtools", ["take_screenshot", "click"]],
    ["unlisted", []],
  ]);
  const [everything, chrome] = namespaces;
  assert.equal(everything.description, "reference server");
  assert.deepEqual(everything.tools[0].tags, ["demo", "text"]);
  assert.deepEqual(everything.tools[1].tags, ["demo"]);
  assert.equal(everything.tools[1].description, "Add numbers");
  assert.equal(chrome.tools[0].tool, "take-screenshot");
  assert.equal(chrome.tools[0].server, "chrome-devtools");
});

Deno.test("namespacesFromCache() reports colliding identifiers instead of merging", () => {
  const { namespaces, problems } = namespacesFromCache(
    [serverSpec("s")],
    cacheOf({ s: [cachedTool("get-page"), cachedTool("get_page"), cachedTool("get.page")] }),
  );
  // The tool whose name already is the identifier keeps it, so `s.get_page` calls `get_page`.
  assert.deepEqual(namespaces[0].tools.map((t) => t.tool), ["get_page"]);
  assert.equal(problems.length, 2);
  assert.match(problems[0], /"get_page" and "get-page" both become function "get_page"/);
  assert.match(problems[0], /server "s"/);
});

Deno.test("namespacesFromCache() without a cache lists servers with no tools", () => {
  const { namespaces } = namespacesFromCache(servers, null);
  assert.deepEqual(namespaces.map((ns) => ns.tools.length), [0, 0, 0]);
});

Deno.test("namespacesFromCache() hides the tools of a server whose filter is invalid", () => {
  const { namespaces, problems } = namespacesFromCache(
    [serverSpec("s", { toolFilter: { exclude: ["/(/"] } })],
    cacheOf({ s: [cachedTool("a")] }),
  );
  assert.deepEqual(namespaces[0].tools, []);
  assert.match(problems[0], /server "s".*hidden/);
});

Deno.test("findTool() accepts function identifiers and real names", async (t) => {
  const { namespaces } = namespacesFromCache(servers, cache);
  const cases: [string, string][] = [
    ["everything.echo", "echo"],
    ["chrome_devtools.take_screenshot", "take-screenshot"],
    ["chrome_devtools.take-screenshot", "take-screenshot"],
    ["chrome-devtools.click", "click"],
  ];
  for (const [ref, tool] of cases) {
    await t.step(ref, () => assert.equal(findTool(namespaces, ref).tool, tool));
  }
});

Deno.test("findTool() suggests the nearest names", async (t) => {
  const { namespaces } = namespacesFromCache(servers, cache);
  const cases: { ref: string; message: RegExp; suggestions: string[] }[] = [
    {
      ref: "everything.ech",
      message:
        /^unknown tool "everything\.ech"; did you mean everything\.echo\? Run `mcpx search <words>`/,
      suggestions: ["everything.echo"],
    },
    {
      ref: "everthing.echo",
      message: /^unknown namespace "everthing"; did you mean everything\?/,
      suggestions: ["everything"],
    },
    {
      ref: "everything.zzzzzz",
      message: /^unknown tool "everything\.zzzzzz"\. Run/,
      suggestions: [],
    },
    {
      ref: "echo",
      message: /not a tool reference.*did you mean everything\.echo\?/,
      suggestions: ["everything.echo"],
    },
    { ref: "off.secret", message: /^unknown namespace "off"/, suggestions: [] },
    {
      ref: "chrome_devtools.close_page",
      message:
        /is hidden by the configuration \(mcpServers\.chrome-devtools\.mcpx\.tools \/ excludeTools\)/,
      suggestions: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.ref, () => {
      let error: unknown;
      try {
        findTool(namespaces, c.ref);
      } catch (caught) {
        error = caught;
      }
      assert.ok(error instanceof NotFoundError);
      assert.match(error.message, c.message);
      assert.deepEqual(error.suggestions, c.suggestions);
    });
  }
});

Deno.test("findNamespace() finds by identifier or server name", () => {
  const { namespaces } = namespacesFromCache(servers, cache);
  assert.equal(findNamespace(namespaces, "chrome_devtools").server, "chrome-devtools");
  assert.equal(findNamespace(namespaces, "chrome-devtools").namespace, "chrome_devtools");
});

Deno.test("findTool() names a disabled namespace and a failed listing instead of 'unknown'", () => {
  const off = serverSpec("off", { disabled: true });
  const broken = serverSpec("broken");
  const cache = cacheOf({ broken: [] });
  cache.servers.broken = {
    tools: [],
    error: { message: "exited with code 3", at: "2026-01-01T00:00:00Z" },
  };
  const view = namespacesFromCache([off, broken], cache);
  assert.throws(
    () => findTool(view.namespaces, "off.x", view.disabled),
    /namespace "off" is disabled/,
  );
  // `disabled` may sit on the server or in its mcpx block; the message claims neither path.
  assert.throws(() => findTool(view.namespaces, "off.x", view.disabled), (e: Error) => {
    assert.ok(e.message.includes('mcpServers.off is disabled ("disabled": true)'), e.message);
    assert.ok(!e.message.includes('mcpServers.off: "disabled"'), e.message);
    return true;
  });
  assert.throws(
    () => findTool(view.namespaces, "broken.x", view.disabled),
    /has no tools because listing its server failed: exited with code 3/,
  );
});

Deno.test("namespacesFromCache() reports tools the server listed but that are unusable", () => {
  const cache = cacheOf({ s: [cachedTool("ok")] });
  cache.servers.s.skipped = [{ name: "bad", reason: '"inputSchema" must be a JSON Schema object' }];
  const { problems } = namespacesFromCache([serverSpec("s")], cache);
  assert.match(problems[0], /tool "bad" is unusable and left out: "inputSchema" must be/);
});

Deno.test("findTool() says why a listed tool was left out", () => {
  const cache = cacheOf({ s: [cachedTool("ok")] });
  cache.servers.s.skipped = [{ name: "research", reason: "it can only be called as a task" }];
  const view = namespacesFromCache([serverSpec("s")], cache);
  assert.throws(
    () => findTool(view.namespaces, "s.research"),
    /is left out: it can only be called as a task/,
  );
});

Deno.test("namespacesFromCache() shows an alias's filtered view of its target's tools", () => {
  const alias = serverSpec("peek", {
    toolFilter: { include: ["echo"], exclude: [] },
    tags: ["peek"],
    aliasOf: { server: "everything", poolId: "0000000000000000", listingId: "0000000000000000" },
  });
  const { namespaces } = namespacesFromCache([servers[0], alias], cache);
  assert.deepEqual(namespaces.map((ns) => [ns.namespace, ns.tools.map((t) => t.fn)]), [
    ["everything", ["echo", "add"]],
    ["peek", ["echo"]],
  ]);
  assert.deepEqual(namespaces[1].tools[0].tags, ["peek"]);
  assert.equal(namespaces[1].tools[0].server, "peek");
  assert.throws(() => findTool(namespaces, "peek.add"), /hidden by the configuration/);
});

Deno.test("namespacesFromCache() leaves out servers outside the profile selection", async (t) => {
  const list = [
    serverSpec("everything"),
    serverSpec("chrome-devtools", { profiles: ["web"], default: false }),
    serverSpec("db", { profiles: ["data", "web"] }),
  ];
  const names = (selection: Parameters<typeof namespacesFromCache>[2]) =>
    namespacesFromCache(list, cache, selection).namespaces.map((ns) => ns.namespace);
  const sel = (profiles: string[], skipDefault = false, all = false) => ({
    profiles,
    skipDefault,
    all,
  });
  await t.step("no selection: every server", () => {
    assert.deepEqual(names(undefined), ["everything", "chrome_devtools", "db"]);
  });
  await t.step("no profile: the default set", () => {
    assert.deepEqual(names(sel([])), ["everything", "db"]);
  });
  await t.step("a profile adds its servers to the default set", () => {
    assert.deepEqual(names(sel(["web"])), ["everything", "chrome_devtools", "db"]);
  });
  await t.step("--skip-default keeps only the profile's servers", () => {
    assert.deepEqual(names(sel(["data"], true)), ["db"]);
  });
  await t.step("--all-profiles shows everything", () => {
    assert.deepEqual(names(sel([], false, true)), ["everything", "chrome_devtools", "db"]);
  });
  await t.step("a lookup outside the selection names the profile", () => {
    const { namespaces, disabled } = namespacesFromCache(list, cache, sel([]));
    assert.throws(
      () => findTool(namespaces, "chrome_devtools.click", disabled),
      (error: unknown) => {
        assert.ok(error instanceof NotFoundError);
        assert.match(error.message, /outside the selected profiles.*profile "web".*--profile web/);
        return true;
      },
    );
  });
});

Deno.test("namespacesFromCache() shows an index entry's tools without schemas, marked summary", () => {
  const index: SchemaIndex = {
    version: 2,
    mcpxVersion: "",
    configPath: null,
    servers: {
      fs: {
        listedAt: "2026-01-01T00:00:00Z",
        file: "/c/schemas-x/s-0.json",
        tools: [{
          name: "read-file",
          description: "Reads",
          terms: { name: ["read", "file"], description: ["read"] },
        }],
      },
    },
  };
  const [ns] = namespacesFromCache([serverSpec("fs")], index).namespaces;
  assert.equal(ns.summary, true);
  assert.deepEqual(ns.tools.map((t) => [t.fn, t.tool, t.description, t.inputSchema, t.terms]), [
    ["read_file", "read-file", "Reads", {}, { name: ["read", "file"], description: ["read"] }],
  ]);
  const whole = namespacesFromCache([serverSpec("fs")], cacheOf({ fs: [cachedTool("read-file")] }));
  assert.equal(whole.namespaces[0].summary, undefined);
});

Deno.test("namespacesFromCache() warns once of a tool pattern that matches no listed tool", () => {
  const { namespaces, problems } = namespacesFromCache(
    [
      serverSpec("ev", { toolFilter: { exclude: ["get_env", "get_envv", "nothing_*"] } }),
      serverSpec("b", { toolFilter: { exclude: ["drop_*"], pooled: ["drop_*"] } }),
      serverSpec("c", { toolFilter: { exclude: ["keep_*"], pooled: ["keep_*"] } }),
      serverSpec("unlisted", { toolFilter: { exclude: ["whatever"] } }),
    ],
    cacheOf({
      ev: [cachedTool("get-env"), cachedTool("echo")],
      b: [cachedTool("echo")],
      c: [cachedTool("keep_me"), cachedTool("echo")],
    }),
  );
  assert.deepEqual(namespaces[0].tools.map((t) => t.tool), ["echo"]);
  assert.equal(problems.length, 3, problems.join("\n"));
  assert.match(problems[0], /server "ev": tool pattern "get_envv" matches none of its 2 tools/);
  assert.match(problems[0], /nearest: get_env/);
  assert.match(problems[1], /server "ev": tool pattern "nothing_\*"/);
  // A pool pattern is said once, and only when no listed server has the tool.
  assert.match(problems[2], /pool block's tool pattern "drop_\*" matches no tool of any/);
});
