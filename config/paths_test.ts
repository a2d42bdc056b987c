import assert from "node:assert/strict";
import { ConfigError } from "../errors.ts";
import { mcpxPaths } from "./paths.ts";

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
      configFiles: ["/h/.config/mcpx/config.json", "/h/.mcpx.json", "/etc/mcpx/config.json"],
    },
    {
      name: "uses XDG directories",
      env: { HOME: "/h", XDG_STATE_HOME: "/s", XDG_CACHE_HOME: "/c", XDG_CONFIG_HOME: "/x" },
      stateDir: "/s/mcpx",
      cacheDir: "/c/mcpx",
      configFiles: [
        "/x/mcpx/config.json",
        "/h/.config/mcpx/config.json",
        "/h/.mcpx.json",
        "/etc/mcpx/config.json",
      ],
    },
    {
      name: "ignores relative XDG values",
      env: { HOME: "/h", XDG_STATE_HOME: "rel", XDG_CONFIG_HOME: "rel" },
      stateDir: "/h/.local/state/mcpx",
      cacheDir: "/h/.cache/mcpx",
      configFiles: ["/h/.config/mcpx/config.json", "/h/.mcpx.json", "/etc/mcpx/config.json"],
    },
    {
      name: "lets MCPX_STATE_DIR and MCPX_CACHE_DIR win",
      env: { HOME: "/h", XDG_STATE_HOME: "/s", MCPX_STATE_DIR: "/st", MCPX_CACHE_DIR: "/ca" },
      stateDir: "/st",
      cacheDir: "/ca",
      configFiles: ["/h/.config/mcpx/config.json", "/h/.mcpx.json", "/etc/mcpx/config.json"],
    },
    {
      name: "deduplicates XDG_CONFIG_HOME equal to ~/.config",
      env: { HOME: "/h", XDG_CONFIG_HOME: "/h/.config" },
      stateDir: "/h/.local/state/mcpx",
      cacheDir: "/h/.cache/mcpx",
      configFiles: ["/h/.config/mcpx/config.json", "/h/.mcpx.json", "/etc/mcpx/config.json"],
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
  await t.step("throws a ConfigError naming HOME when nothing locates the state directory", () => {
    assert.throws(() => mcpxPaths({}), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /HOME is unset/);
      return true;
    });
  });
});
