/**
 * A project's configuration hides the user's servers (the nearest file wins),
 * but never without a word: `ls`, `search` and an unknown namespace's error
 * name the file in use, the user's file it shadows, and `--config` (issue 24).
 */
import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../../core/io.ts";
import { processesMarked } from "../../tests/_helpers.ts";

Deno.test("ls, search and an unknown namespace say the user's configuration is shadowed", async (t) => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-shadowed-" }));
  const project = `${home}/project`;
  const user = `${home}/.config/mcpx/config.json`;
  const mark = crypto.randomUUID();
  await Deno.mkdir(`${home}/.config/mcpx`, { recursive: true });
  await Deno.mkdir(project);
  // Neither file's servers start: the user's are shadowed, the project's are not trusted.
  await Deno.writeTextFile(
    user,
    JSON.stringify({ mcpServers: { mine: { command: "false" }, notes: { command: "false" } } }),
  );
  await Deno.writeTextFile(
    `${project}/.mcp.json`,
    JSON.stringify({ mcpServers: { theirs: { command: "false" } } }),
  );
  const env = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: home,
    MCPX_STATE_DIR: `${home}/s`,
    MCPX_CACHE_DIR: `${home}/c`,
    MCPX_TEST_MARK: mark,
  };
  const run = async (argv: string[], cwd = project) => {
    const io = memoryIo();
    const code = await main(argv, io, env, cwd);
    return { code, stdout: io.stdout, stderr: io.stderr };
  };
  const note = new RegExp(
    `note: servers come from ${project}/\\.mcp\\.json, the nearest configuration file; ` +
      `your own ${user} is not used here: add --config ${user} to use it`,
  );
  try {
    await t.step("ls", async () => {
      const r = await run(["ls"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /theirs/);
      assert.match(r.stderr, note);
      const doc = JSON.parse((await run(["--json", "ls"])).stdout);
      assert.equal(doc.config, `${project}/.mcp.json`);
      assert.deepEqual(doc.shadowed, [{ path: user, origin: "user" }]);
    });
    await t.step("search", async () => {
      const r = await run(["search", "notes"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, note);
    });
    await t.step("an unknown namespace", async () => {
      for (const argv of [["call", "mine.tool", "{}"], ["types", "mine"]]) {
        const r = await run(argv);
        assert.equal(r.code, 1, argv.join(" "));
        assert.match(r.stderr, /unknown namespace "mine"/);
        assert.match(r.stderr, note);
      }
    });
    await t.step("no note where nothing is shadowed, or --config picks the file", async () => {
      const named = await run(["--config", user, "call", "mines.tool", "{}"]);
      assert.equal(named.code, 1);
      assert.match(named.stderr, /did you mean mine\?/, "--config uses the user's servers");
      assert.doesNotMatch(named.stderr, /note: servers come from/);
      const outside = await run(["call", "mines.tool", "{}"], home);
      assert.match(outside.stderr, /did you mean mine\?/);
      assert.doesNotMatch(outside.stderr, /note: servers come from/);
    });
    assert.deepEqual(processesMarked(mark), [], "nothing was started");
  } finally {
    for (const pid of processesMarked(mark)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(home, { recursive: true });
  }
});
