import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../core/errors.ts";
import {
  configCandidates,
  configOrigin,
  describeSearch,
  findConfig,
  findConfigLayers,
  noConfigMessage,
  PROJECT_CONFIG_NAMES,
} from "./discover.ts";

/** A temp tree: root/home, root/xdg, root/proj/sub/deep. Removed on dispose. */
async function tree() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-discover-" }));
  const deep = join(root, "proj", "sub", "deep");
  await Deno.mkdir(deep, { recursive: true });
  await Deno.mkdir(join(root, "home"), { recursive: true });
  const write = async (rel: string) => {
    const path = join(root, rel);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, "{}");
    return path;
  };
  const env = { HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "xdg") };
  return {
    root,
    deep,
    env,
    write,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

Deno.test("configCandidates() behaviour", async (t) => {
  await t.step(
    "lists each directory's names nearest first (spec 002's after mcpx's), then user and system files",
    () => {
      const c = configCandidates({ cwd: "/a/b", env: { HOME: "/h", XDG_CONFIG_HOME: "/x" } });
      const project = [".mcpx.json", ".mcpx/config.json", ".mcp.json", "mcp.jsonc", "mcp.json"]
        .concat(".mcp.jsonc");
      const user = ["config.json", "mcp.jsonc", "mcp.json", ".mcp.jsonc", ".mcp.json"];
      assert.deepEqual(c, [
        ...project.map((n) => `/a/b/${n}`),
        ...project.map((n) => `/a/${n}`),
        ...project.map((n) => `/${n}`),
        ...user.map((n) => `/x/mcpx/${n}`),
        ...user.map((n) => `/h/.config/mcpx/${n}`),
        "/h/.mcpx.json",
        "/etc/mcpx/config.json",
      ]);
    },
  );
  await t.step("is only MCPX_CONFIG when set, resolved against cwd", () => {
    assert.deepEqual(configCandidates({ cwd: "/a", env: { MCPX_CONFIG: "c.json" } }), [
      "/a/c.json",
    ]);
  });
});

Deno.test("findConfig() behaviour", async (t) => {
  const cases: { name: string; files: string[]; expect: string | null }[] = [
    { name: "finds nothing in an empty tree", files: [], expect: null },
    {
      name: "finds .mcp.json in cwd",
      files: ["proj/sub/deep/.mcp.json"],
      expect: "proj/sub/deep/.mcp.json",
    },
    {
      name: "prefers .mcpx.json over .mcpx/config.json over .mcp.json in one directory",
      files: ["proj/.mcp.json", "proj/.mcpx/config.json", "proj/.mcpx.json"],
      expect: "proj/.mcpx.json",
    },
    {
      name: "prefers .mcpx/config.json over .mcp.json",
      files: ["proj/.mcp.json", "proj/.mcpx/config.json"],
      expect: "proj/.mcpx/config.json",
    },
    {
      name: "prefers the nearest directory over a better name farther up",
      files: ["proj/.mcpx.json", "proj/sub/.mcp.json"],
      expect: "proj/sub/.mcp.json",
    },
    {
      name: "falls back to XDG_CONFIG_HOME",
      files: ["xdg/mcpx/config.json", "home/.mcpx.json"],
      expect: "xdg/mcpx/config.json",
    },
    {
      name: "falls back to ~/.config/mcpx before ~/.mcpx.json",
      files: ["home/.config/mcpx/config.json", "home/.mcpx.json"],
      expect: "home/.config/mcpx/config.json",
    },
    { name: "falls back to ~/.mcpx.json", files: ["home/.mcpx.json"], expect: "home/.mcpx.json" },
    // Spec 002's names (decision 0056): after mcpx's own at each level, nearest level first.
    {
      name: "finds spec 002's mcp.jsonc in cwd",
      files: ["proj/sub/deep/mcp.jsonc"],
      expect: "proj/sub/deep/mcp.jsonc",
    },
    {
      name: "prefers .mcp.json over spec 002's names in one directory",
      files: ["proj/mcp.jsonc", "proj/mcp.json", "proj/.mcp.jsonc", "proj/.mcp.json"],
      expect: "proj/.mcp.json",
    },
    {
      name: "orders spec 002's names mcp.jsonc, mcp.json, .mcp.jsonc",
      files: ["proj/mcp.json", "proj/.mcp.jsonc"],
      expect: "proj/mcp.json",
    },
    {
      name: "prefers a nearer mcp.json over a farther .mcpx.json",
      files: ["proj/.mcpx.json", "proj/sub/mcp.json"],
      expect: "proj/sub/mcp.json",
    },
    {
      name: "reads spec 002's names in the user configuration directory after config.json",
      files: ["home/.config/mcpx/mcp.jsonc", "home/.mcpx.json"],
      expect: "home/.config/mcpx/mcp.jsonc",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using tmp = await tree();
      for (const f of c.files) await tmp.write(f);
      const found = findConfig({ cwd: tmp.deep, env: tmp.env });
      assert.equal(found.path, c.expect === null ? null : join(tmp.root, c.expect));
      if (found.path) assert.equal(found.searched.at(-1), found.path);
    });
  }
  // Passing over it would read as "no configuration found", or pick a farther file.
  const notFiles: [string, (path: string) => void, RegExp][] = [
    ["a directory", (p) => Deno.mkdirSync(p), /is a directory.*rename or remove the directory/],
    [
      "a symbolic link to nothing",
      (p) => Deno.symlinkSync(`${p}.gone`, p),
      /is a symbolic link to .*\.gone, which does not exist; fix the link or remove it/,
    ],
    [
      "a named pipe",
      (p) => new Deno.Command("mkfifo", { args: [p] }).outputSync(),
      /is a named pipe \(FIFO\), not a configuration file/,
    ],
  ];
  for (const [what, make, message] of notFiles) {
    await t.step(`reports ${what} named like a config file, naming it`, async () => {
      await using tmp = await tree();
      const path = join(tmp.deep, ".mcp.json");
      make(path);
      await tmp.write("proj/sub/.mcp.json");
      for (const find of [findConfig, findConfigLayers]) {
        assert.throws(
          () => find({ cwd: tmp.deep, env: tmp.env }),
          (e: unknown) => e instanceof ConfigError && e.file === path && message.test(e.message),
        );
      }
    });
  }
  await t.step("lets MCPX_CONFIG override a nearer file", async () => {
    await using tmp = await tree();
    await tmp.write("proj/sub/deep/.mcpx.json");
    const chosen = await tmp.write("elsewhere.json");
    const found = findConfig({ cwd: tmp.deep, env: { ...tmp.env, MCPX_CONFIG: chosen } });
    assert.deepEqual(found, { path: chosen, searched: [chosen] });
  });
  await t.step("throws naming MCPX_CONFIG and the path when its file is missing", async () => {
    await using tmp = await tree();
    const missing = join(tmp.root, "nope.json");
    assert.throws(
      () => findConfig({ cwd: tmp.deep, env: { ...tmp.env, MCPX_CONFIG: missing } }),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.ok(e.message.includes("MCPX_CONFIG"));
        assert.ok(e.message.includes(missing));
        assert.match(e.message, /unset MCPX_CONFIG/);
        return true;
      },
    );
  });
});

Deno.test("findConfigLayers() behaviour", async (t) => {
  await t.step("returns every existing file farthest first, nearest last", async () => {
    await using tmp = await tree();
    const files = [
      "home/.mcpx.json",
      "xdg/mcpx/config.json",
      "proj/.mcp.json",
      "proj/.mcpx.json",
      "proj/sub/deep/.mcpx/config.json",
    ];
    for (const f of files) await tmp.write(f);
    const layers = findConfigLayers({ cwd: tmp.deep, env: tmp.env })
      .filter((p) => p.startsWith(tmp.root));
    assert.deepEqual(
      layers,
      [
        "home/.mcpx.json",
        "xdg/mcpx/config.json",
        "proj/.mcp.json",
        "proj/.mcpx.json",
        "proj/sub/deep/.mcpx/config.json",
      ].map((f) => join(tmp.root, f)),
    );
  });
  await t.step("is only the MCPX_CONFIG file when set", async () => {
    await using tmp = await tree();
    await tmp.write("proj/.mcpx.json");
    const chosen = await tmp.write("c.json");
    assert.deepEqual(
      findConfigLayers({ cwd: tmp.deep, env: { ...tmp.env, MCPX_CONFIG: chosen } }),
      [chosen],
    );
  });
});

Deno.test("configCandidates() with paths.config places", async (t) => {
  await using tmp = await tree();
  await t.step("a null place is the built-in search, spliced where it stands", async () => {
    const mine = await tmp.write("mine/config.json");
    const file = join(tmp.root, "one.json");
    const c = configCandidates({
      cwd: tmp.deep,
      env: tmp.env,
      places: [join(tmp.root, "mine"), file, null],
    });
    const n = PROJECT_CONFIG_NAMES.length;
    assert.deepEqual(c.slice(0, n + 2), [
      ...PROJECT_CONFIG_NAMES.map((name) => join(tmp.root, "mine", name)),
      mine,
      file,
    ]);
    assert.equal(c[n + 2], join(tmp.deep, ".mcpx.json"));
  });
  await t.step("places without null replace the built-in search", async () => {
    const file = await tmp.write("elsewhere.json");
    await tmp.write("proj/.mcp.json");
    assert.deepEqual(configCandidates({ cwd: tmp.deep, env: tmp.env, places: [file] }), [file]);
    assert.equal(findConfig({ cwd: tmp.deep, env: tmp.env, places: [file] }).path, file);
    assert.equal(
      findConfig({ cwd: tmp.deep, env: tmp.env, places: [null] }).path,
      join(tmp.root, "proj", ".mcp.json"),
    );
  });
});

Deno.test("describeSearch() says where the search looked in one sentence", () => {
  const searched = configCandidates({ cwd: "/a/b", env: { HOME: "/h", XDG_CONFIG_HOME: "/x" } });
  assert.equal(
    describeSearch(searched),
    "looked for .mcpx.json, .mcpx/config.json, .mcp.json, mcp.jsonc, mcp.json or .mcp.jsonc in " +
      "/a/b and every directory above it, then at " +
      "/x/mcpx/{config.json,mcp.jsonc,mcp.json,.mcp.jsonc,.mcp.json}, " +
      "/h/.config/mcpx/{config.json,mcp.jsonc,mcp.json,.mcp.jsonc,.mcp.json}, /h/.mcpx.json and " +
      "/etc/mcpx/config.json",
  );
  assert.equal(describeSearch(["/c.json"]), "looked at /c.json");
  const message = noConfigMessage(searched, "/a/b");
  assert.match(message, /^no configuration file found \(looked for /);
  assert.match(message, /create \/a\/b\/\.mcp\.json with \{ "mcpServers"/);
});

Deno.test("configOrigin() tells a project's file from the user's own and a named one", () => {
  const env = { HOME: "/h", XDG_CONFIG_HOME: "/x" };
  const at = (path: string, extra: Parameters<typeof configOrigin>[1] | object = {}) =>
    configOrigin(path, { cwd: "/h/repo/sub", env, ...extra });
  assert.equal(at("/h/repo/.mcp.json"), "project");
  assert.equal(at("/h/repo/sub/.mcpx/config.json"), "project");
  // In HOME, only ~/.mcpx.json is the user's own; a .mcp.json there is a project's like any other.
  assert.equal(at("/h/.mcp.json"), "project");
  assert.equal(at("/h/.mcpx.json"), "user");
  assert.equal(at("/x/mcpx/config.json"), "user");
  assert.equal(at("/h/.config/mcpx/config.json"), "user");
  assert.equal(at("/etc/mcpx/config.json"), "user");
  assert.equal(at("/h/repo/.mcp.json", { named: true }), "named");
  assert.equal(at("/h/repo/.mcp.json", { env: { ...env, MCPX_CONFIG: "x" } }), "named");
  // A place the user listed in paths.config is their choice; the null entry is the usual search.
  assert.equal(at("/team/mcp.json", { places: ["/team/mcp.json", null] }), "user");
  assert.equal(at("/h/repo/.mcp.json", { places: ["/team/mcp.json", null] }), "project");
});
