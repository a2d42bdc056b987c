import assert from "node:assert/strict";
import { ConfigError } from "../core/errors.ts";
import { mcpxPaths } from "./paths.ts";

/** A user configuration directory's candidates: mcpx's own name, then spec 002's four. */
const userDir = (dir: string) =>
  ["config.json", "mcp.jsonc", "mcp.json", ".mcp.jsonc", ".mcp.json"].map((n) => `${dir}/${n}`);

Deno.test("mcpxPaths() behaviour", async (t) => {
  const cases: {
    name: string;
    env: Record<string, string>;
    stateDir: string;
    cacheDir: string;
    configFiles: string[];
  }[] = [
    {
      name: "falls back to HOME",
      env: { HOME: "/h" },
      stateDir: "/h/.local/state/mcpx",
      cacheDir: "/h/.cache/mcpx",
      configFiles: [...userDir("/h/.config/mcpx"), "/h/.mcpx.json", "/etc/mcpx/config.json"],
    },
    {
      name: "uses XDG directories",
      env: { HOME: "/h", XDG_STATE_HOME: "/s", XDG_CACHE_HOME: "/c", XDG_CONFIG_HOME: "/x" },
      stateDir: "/s/mcpx",
      cacheDir: "/c/mcpx",
      configFiles: [
        ...userDir("/x/mcpx"),
        ...userDir("/h/.config/mcpx"),
        "/h/.mcpx.json",
        "/etc/mcpx/config.json",
      ],
    },
    {
      name: "ignores relative XDG values",
      env: { HOME: "/h", XDG_STATE_HOME: "rel", XDG_CONFIG_HOME: "rel" },
      stateDir: "/h/.local/state/mcpx",
      cacheDir: "/h/.cache/mcpx",
      configFiles: [...userDir("/h/.config/mcpx"), "/h/.mcpx.json", "/etc/mcpx/config.json"],
    },
    {
      name: "lets MCPX_STATE_DIR and MCPX_CACHE_DIR win",
      env: { HOME: "/h", XDG_STATE_HOME: "/s", MCPX_STATE_DIR: "/st", MCPX_CACHE_DIR: "/ca" },
      stateDir: "/st",
      cacheDir: "/ca",
      configFiles: [...userDir("/h/.config/mcpx"), "/h/.mcpx.json", "/etc/mcpx/config.json"],
    },
    {
      name: "uses MCPX_PATHS_STATE and MCPX_PATHS_CACHE, the settings' generated names",
      env: { HOME: "/h", XDG_STATE_HOME: "/s", MCPX_PATHS_STATE: "/ps", MCPX_PATHS_CACHE: "/pc" },
      stateDir: "/ps",
      cacheDir: "/pc",
      configFiles: [...userDir("/h/.config/mcpx"), "/h/.mcpx.json", "/etc/mcpx/config.json"],
    },
    {
      name: "accepts both spellings when they agree, and treats an empty one as unset",
      env: {
        HOME: "/h",
        MCPX_PATHS_STATE: "/st",
        MCPX_STATE_DIR: "/st",
        MCPX_PATHS_CACHE: "",
        MCPX_CACHE_DIR: "/ca",
      },
      stateDir: "/st",
      cacheDir: "/ca",
      configFiles: [...userDir("/h/.config/mcpx"), "/h/.mcpx.json", "/etc/mcpx/config.json"],
    },
    {
      name: "deduplicates XDG_CONFIG_HOME equal to ~/.config",
      env: { HOME: "/h", XDG_CONFIG_HOME: "/h/.config" },
      stateDir: "/h/.local/state/mcpx",
      cacheDir: "/h/.cache/mcpx",
      configFiles: [...userDir("/h/.config/mcpx"), "/h/.mcpx.json", "/etc/mcpx/config.json"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const p = mcpxPaths(c.env);
      assert.equal(p.stateDir, c.stateDir);
      assert.equal(p.cacheDir, c.cacheDir);
      assert.deepEqual(p.configFiles, c.configFiles);
    });
  }
  for (
    const [setting, a, b] of [
      ["paths.state", "MCPX_PATHS_STATE", "MCPX_STATE_DIR"],
      ["paths.cache", "MCPX_PATHS_CACHE", "MCPX_CACHE_DIR"],
    ]
  ) {
    await t.step(`throws a ConfigError when ${a} and ${b} disagree`, () => {
      assert.throws(() => mcpxPaths({ HOME: "/h", [a]: "/one", [b]: "/two" }), (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.equal(e.file, "environment");
        for (const part of [setting, `${a}="/one"`, `${b}="/two"`, "unset all but one"]) {
          assert.ok(e.message.includes(part), `${e.message} lacks ${part}`);
        }
        return true;
      });
    });
  }
  await t.step("throws a ConfigError naming HOME when nothing locates the state directory", () => {
    assert.throws(() => mcpxPaths({}), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /HOME is unset/);
      return true;
    });
  });
});
