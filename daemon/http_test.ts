import assert from "node:assert/strict";
import { Daemon } from "./daemon.ts";
import { serveDaemon } from "./http.ts";
import { requestDaemon } from "../client/daemon_request.ts";
import { McpxError } from "../errors.ts";

Deno.test("serveDaemon() refuses every request but health, unrun, once the daemon is stopping", async () => {
  const dir = await Deno.makeTempDir();
  const daemon = new Daemon({
    config: { path: null, realPath: null, fingerprint: "0".repeat(16), servers: [], document: {} },
    cachePath: `${dir}/schemas.json`,
    sessionsPath: `${dir}/sessions.json`,
    mode: "foreground",
    env: {},
  });
  let stops = 0;
  const server = await serveDaemon(daemon, `${dir}/d.sock`, () => stops++);
  try {
    daemon.stopping = true;
    const refused = await requestDaemon(`${dir}/d.sock`, "stop", {}).then(
      () => assert.fail("expected a refusal"),
      (e) => e,
    );
    assert.ok(refused instanceof McpxError);
    assert.equal(refused.code, "daemon-stopping");
    assert.match(refused.message, /nothing was run/);
    assert.equal(stops, 0, "the refused stop did not run");
    const health = await requestDaemon<{ stopping: boolean }>(`${dir}/d.sock`, "health", {});
    assert.equal(health.stopping, true);
  } finally {
    await server.shutdown();
    await daemon.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
