/**
 * Everything that means "the configuration file's directory" is the real
 * file's directory, one path for all of them (issue 9, the new-user tester): a
 * stdio server's implicit `cwd`, a relative `cwd` (and so relative paths in
 * `command` and `args`), and relative `path` settings such as `paths.scripts`.
 * And that directory is part of a stdio server's pool identity.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig, readConfigLayers } from "./load.ts";
import { parseConfig } from "./parse.ts";
import { resolveSettings } from "./resolve_settings.ts";

/** A temporary directory (real path) removed on dispose. */
async function tmpDir() {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-real-dir-" }));
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}

const SERVERS = {
  mcpServers: {
    implicit: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
    relative: { command: "./srv.sh", cwd: "sub" },
    remote: { url: "https://x.test/mcp" },
  },
  paths: { scripts: "scripts" },
};

Deno.test("loadConfig() starts stdio servers in the real file's directory, also through a link", async () => {
  await using tmp = await tmpDir();
  const proj = join(tmp.path, "proj");
  const other = join(tmp.path, "cloned");
  await Deno.mkdir(proj);
  await Deno.mkdir(other);
  await Deno.writeTextFile(join(proj, ".mcp.json"), JSON.stringify(SERVERS));
  await Deno.symlink(join(proj, ".mcp.json"), join(other, ".mcp.json"));

  for (const cwd of [proj, other]) {
    // No compiled cache here: each load parses the file.
    const config = await loadConfig({ cwd, env: { HOME: tmp.path } });
    assert.equal(config.path, join(cwd, ".mcp.json"));
    const byName = Object.fromEntries(config.servers.map((s) => [s.name, s]));
    assert.equal(byName.implicit.cwd, proj, `found from ${cwd}`);
    assert.equal(byName.relative.cwd, join(proj, "sub"), `found from ${cwd}`);
    assert.equal(byName.remote.cwd, undefined);

    const layers = await readConfigLayers({ cwd, env: { HOME: tmp.path } });
    const mine = layers.filter((l) => l.file.startsWith(tmp.path));
    const settings = resolveSettings({ layers: mine, env: {}, cwd });
    assert.equal(settings.values["paths.scripts"].value, join(proj, "scripts"));
  }
});

Deno.test("parseConfig(): the directory a stdio server starts in is part of its pool identity", () => {
  // Issue 9: p1/ and p2/ each hold their own server.js behind the same entry.
  const text = JSON.stringify({ mcpServers: { local: { command: "node", args: ["server.js"] } } });
  const relative = JSON.stringify({ mcpServers: { local: { command: "./srv.sh" } } });
  for (const entry of [text, relative]) {
    const one = parseConfig(entry, "/p1/.mcp.json", {}).servers[0];
    const two = parseConfig(entry, "/p2/.mcp.json", {}).servers[0];
    assert.equal(one.cwd, "/p1");
    assert.notEqual(one.poolId, two.poolId);
    // The directory given as the real one wins over the path as found.
    const linked = parseConfig(entry, "/p2/.mcp.json", {}, { dir: "/p1" }).servers[0];
    assert.equal(linked.poolId, one.poolId);
  }
  // Written as "." it is the same directory, so the same pool as leaving it out.
  const dot = JSON.stringify({
    mcpServers: { local: { command: "node", args: ["server.js"], cwd: "." } },
  });
  assert.equal(
    parseConfig(dot, "/p1/.mcp.json", {}).servers[0].poolId,
    parseConfig(text, "/p1/.mcp.json", {}).servers[0].poolId,
  );
});
