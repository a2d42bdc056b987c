/**
 * A command that fails on a name the configuration does not have fails
 * before it needs the daemon, and starts none (issue 24: `mcpx call
 * nosuch.tool '{}'` with no servers started a daemon that idled for hours).
 */
import assert from "node:assert/strict";
import { main } from "./main.ts";
import { memoryIo } from "../core/io.ts";
import { processesMarked } from "../tests/_helpers.ts";

const COMMANDS = [
  ["call", "nosuch.tool", "{}"],
  ["prompts", "nosuch"],
  ["prompts", "nosuch.greet"],
  ["resources", "nosuch"],
  ["skills", "nosuch"],
];

Deno.test("a command naming an unknown namespace fails with a suggestion and starts no daemon", async (t) => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-unknown-ns-" }));
  const mark = crypto.randomUUID();
  // One server the configuration has, never started: its name is what a typo is near.
  await Deno.writeTextFile(
    `${home}/.mcp.json`,
    JSON.stringify({ mcpServers: { everything: { command: "false" } } }),
  );
  const env = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: home,
    MCPX_STATE_DIR: `${home}/s`,
    MCPX_CACHE_DIR: `${home}/c`,
    MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always",
    MCPX_TEST_MARK: mark,
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
  };
  try {
    for (const argv of COMMANDS) {
      await t.step(`mcpx ${argv.join(" ")}`, async () => {
        const io = memoryIo();
        const code = await main(argv, io, env, home);
        assert.equal(code, 1, io.stderr);
        assert.match(io.stderr, /unknown namespace "nosuch"/);
        assert.deepEqual(processesMarked(mark), [], "a daemon was started");
      });
    }
    await t.step("a near name is suggested", async () => {
      const io = memoryIo();
      assert.equal(await main(["call", "everythin.echo", "{}"], io, env, home), 1);
      assert.match(io.stderr, /did you mean everything\?/);
      assert.deepEqual(processesMarked(mark), []);
    });
  } finally {
    for (const pid of processesMarked(mark)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(home, { recursive: true });
  }
});
