import assert from "node:assert/strict";
import { main } from "./main.ts";
import { memoryIo } from "../core/io.ts";
import { mcpxInProcess as run } from "../tests/_in_process.ts";

Deno.test("main() prints the version and the help", async () => {
  assert.match((await run(["--version"])).stdout, /^mcpx \d+\.\d+\.\d+\n$/);
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /commands:\n\s+ls\s/);
  assert.match((await run(["search", "--help"])).stdout, /usage: mcpx search/);
});

Deno.test("main() prints one command's help for mcpx help <command>", async () => {
  const one = await run(["help", "search"]);
  assert.equal(one.code, 0, one.stderr);
  assert.equal(one.stdout, (await run(["search", "--help"])).stdout);
  assert.match(one.stdout, /^usage: mcpx search/);
  assert.match((await run(["help"])).stdout, /commands:\n\s+ls\s/);
  const typo = await run(["help", "sarch"]);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /"sarch" is neither a command nor a help topic; did you mean search\?/);
});

Deno.test("main() refuses an unknown command with a suggestion and exit 2", async () => {
  const result = await run(["sarch", "x"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /unknown command "sarch"; did you mean search\?/);
});

Deno.test("main() refuses an unknown flag with a suggestion and exit 2", async () => {
  const result = await run(["ls", "--jsn"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--jsn/);
  assert.match(result.stderr, /did you mean --json\?/);
});

Deno.test("main() parses boolean flags the same with or without the full parser", async () => {
  // `--json ls` takes the shortcut; `--json --catalog-budget 5 ls` needs parseArgs.
  const quick = await run(["--json", "ls"]);
  const full = await run(["--json", "--catalog-budget", "5", "ls"]);
  assert.equal(quick.code, 0, quick.stderr);
  assert.equal(full.code, 0, full.stderr);
  // Each run has its own folder, so where the search looked differs; the rest must not.
  const { searched: _q, ...quickDoc } = JSON.parse(quick.stdout);
  const { searched: _f, ...fullDoc } = JSON.parse(full.stdout);
  assert.deepEqual(quickDoc, fullDoc);
});

Deno.test("main() reads a setting from its generated flag", async () => {
  const result = await run(["--json", "config", "--search-limit", "7"]);
  assert.equal(result.code, 0, result.stderr);
  const setting = JSON.parse(result.stdout).settings.find((s: { name: string }) =>
    s.name === "search.limit"
  );
  assert.equal(setting.value, 7);
  assert.equal(setting.source, "flag:--search-limit");
});

Deno.test("main() refuses arguments a command does not take", async () => {
  const result = await run(["ls", "extra"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /`mcpx ls` takes no arguments; unexpected "extra"/);
});

Deno.test("main() prints an error document on stdout under --json", async () => {
  const result = await run(["--json", "sarch"]);
  assert.equal(result.code, 2);
  const doc = JSON.parse(result.stdout);
  assert.equal(doc.ok, false);
  assert.equal(doc.error.code, "usage");
  assert.match(doc.error.message, /unknown command "sarch"/);
  assert.match(result.stderr, /error: unknown command/);
});

Deno.test("main() runs daemons, stop --all and --version where the configuration is broken", async (t) => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-broken-" }));
  try {
    // A server whose command is not a string: every command that needs the configuration
    // fails on it (an unset ${VAR} no longer does: it only makes its own server unusable).
    await Deno.writeTextFile(
      `${dir}/.mcp.json`,
      JSON.stringify({ mcpServers: { a: { command: 42 } } }),
    );
    const env = { HOME: dir, MCPX_STATE_DIR: `${dir}/s`, MCPX_CACHE_DIR: `${dir}/c` };
    const run = async (argv: string[], extra: Record<string, string> = {}) => {
      const io = memoryIo();
      const code = await main(argv, io, { ...env, ...extra }, dir);
      return { code, stdout: io.stdout, stderr: io.stderr };
    };
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["--version"], {}, /^mcpx \d/],
      [["daemons"], {}, /^No daemon is running/],
      [["stop", "--all"], {}, /^no daemon was running\n$/],
      [["--json", "daemons"], {}, /^\{\n\s+"daemons": \[\]/],
      [["stop", "--all", "--json"], {}, /^\{"stopped":0\}\n$/],
      [["stop", "--all", "--output-format", "json"], {}, /^\{"stopped":0\}\n$/],
      [["stop", "--all"], { MCPX_OUTPUT_JSON: "1" }, /^\{"stopped":0\}\n$/],
      [["daemons"], { MCPX_OUTPUT_FORMAT: "json" }, /^\{\n\s+"daemons": \[\]/],
    ];
    for (const [argv, extra, stdout] of cases) {
      await t.step(`${Object.keys(extra).join(" ")} mcpx ${argv.join(" ")} exits 0`, async () => {
        const result = await run(argv, extra);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, stdout);
        assert.equal(result.stderr, "");
      });
    }
    await t.step("the error still stops a command that needs the configuration", async () => {
      const result = await run(["ls"]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /mcpServers\.a\.command/);
    });
    await t.step("mcpx stop (without --all) says stop --all does not read it", async () => {
      const result = await run(["stop"]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /mcpServers\.a\.command/);
      assert.match(
        result.stderr,
        /\(mcpx stop --all stops every daemon without reading it\)\n$/,
      );
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
