import assert from "node:assert/strict";
import { startInlineDaemon } from "./inline.ts";
import { loadConfig } from "../config/load.ts";
import { withDerivedServers } from "../config/derived_servers.ts";
import { parseSettingValues } from "../engine/daemon_settings.ts";

Deno.test({
  name:
    "startInlineDaemon() serves the namespaces paths.apis declares, under the command's fingerprint",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.realPath(await Deno.makeTempDir());
    try {
      await Deno.writeTextFile(`${dir}/.mcpx.json`, JSON.stringify({ mcpServers: {} }));
      await Deno.writeTextFile(
        `${dir}/apis.json`,
        JSON.stringify({ apis: [{ name: "petstore", spec: "./petstore.yaml" }] }),
      );
      const env = { HOME: dir, XDG_STATE_HOME: `${dir}/state`, XDG_CACHE_HOME: `${dir}/cache` };
      const settings = parseSettingValues(JSON.stringify({ "paths.apis": `${dir}/apis.json` }));
      // What the command computes (cli/context_settings.ts): the file with its declared namespaces.
      const config = await withDerivedServers(
        await loadConfig({ cwd: dir, env }),
        (name) => String(settings[name] ?? ""),
        env,
      );
      await using inline = await startInlineDaemon({
        configPath: config.path,
        fingerprint: config.fingerprint,
        settings,
        env,
        cwd: dir,
        trustCheck: false,
      });
      assert.match(inline.socket, /-inline-/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
