/**
 * Configuration as a CLI user meets it: `mcpx config` shows each setting's
 * value and source (default < file < environment < flag), and a broken
 * config stops every command with one clear `error: config <file>: <path>:`
 * message, no stack trace and no daemon. (Every kind of broken config is
 * covered table-driven in config/load_test.ts; these are representatives.)
 */

import assert from "node:assert/strict";
import { STACK_LINE, world } from "./_helpers.ts";

interface ResolvedSetting {
  name: string;
  value: unknown;
  source: string;
  overrode: { value: unknown; source: string }[];
}

Deno.test("config --json shows each setting's value and where it came from", async (t) => {
  await using w = await world();
  const file = await w.writeConfig({ search: { limit: 3 }, mcpServers: {} });
  const setting = async (
    name: string,
    options: { args?: string[]; env?: Record<string, string> },
  ) => {
    const { settings } = await w.json<{ settings: ResolvedSetting[] }>(
      ["config", ...(options.args ?? [])],
      { env: options.env },
    );
    return settings.find((s) => s.name === name)!;
  };

  await t.step("config reports the default when nothing sets a value", async () => {
    const budget = await setting("catalog.budget", {});
    assert.deepEqual([budget.value, budget.source], [2000, "default"]);
  });

  await t.step("config reports a value from the config file", async () => {
    const limit = await setting("search.limit", {});
    assert.deepEqual([limit.value, limit.source], [3, `file:${file}`]);
  });

  await t.step("config: MCPX_SEARCH_LIMIT overrides the file, a flag overrides both", async () => {
    const env = { MCPX_SEARCH_LIMIT: "5" };
    const fromEnv = await setting("search.limit", { env });
    assert.deepEqual([fromEnv.value, fromEnv.source], [5, "env:MCPX_SEARCH_LIMIT"]);
    const fromFlag = await setting("search.limit", { env, args: ["--search-limit", "7"] });
    assert.deepEqual([fromFlag.value, fromFlag.source], [7, "flag:--search-limit"]);
    assert.deepEqual(fromFlag.overrode.map((o) => [o.value, o.source]), [
      [20, "default"],
      [3, `file:${file}`],
      [5, "env:MCPX_SEARCH_LIMIT"],
    ]);
  });

  await t.step("a setting from the environment and its flag reach the command", async () => {
    const env = { MCPX_CATALOG_BUDGET: "300" };
    assert.equal((await w.json(["catalog"], { env })).budget, 300);
    assert.equal((await w.json(["catalog", "--budget", "200"], { env })).budget, 200);
  });

  await t.step("config --schema --json declares each setting with its env and flag", async () => {
    const { settings } = await w.json(["config", "--schema"]);
    const limit = settings.find((s: { name: string }) => s.name === "search.limit");
    assert.ok(limit.env.includes("MCPX_SEARCH_LIMIT"), JSON.stringify(limit));
    assert.ok(limit.flags.includes("--search-limit") && limit.flags.includes("-n"));
    assert.equal(limit.default, "20");
  });

  await t.step("a bad value from the environment is an error naming the variable", async () => {
    const r = await w.mcpx(["config"], { env: { MCPX_SEARCH_LIMIT: "many" } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: config environment: MCPX_SEARCH_LIMIT: /);
    assert.match(r.stderr, /"many"/);
    assert.doesNotMatch(r.stderr, STACK_LINE);
  });
});

Deno.test("a broken config stops every command with a clear error and no stack", async (t) => {
  await using w = await world();
  const cases: { name: string; text: string; where: string; parts: RegExp[] }[] = [
    {
      name: "JSON syntax error",
      text: '{ "mcpServers": { "fs": { "command": "npx",, } } }',
      where: "JSON syntax error at {file}:1:",
      parts: [/comments and trailing commas are allowed/],
    },
    {
      name: "command of the wrong type",
      text: '{ "mcpServers": { "fs": { "command": 42 } } }',
      where: "mcpServers.fs.command: ",
      parts: [/must be a non-empty string, got 42/],
    },
    {
      // An unset ${VAR} only makes its own server unusable (tests/config_failures_test.ts);
      // a `${` that names nothing is wrong whatever the environment holds.
      name: "malformed ${ in env",
      text: '{ "mcpServers": { "fs": { "command": "x", "env": { "KEY": "${}" } } } }',
      where: "mcpServers.fs.env.KEY: ",
      parts: [/"\$\{\}" names no variable/, /server "fs"/],
    },
    {
      name: "two servers with one namespace",
      text: '{ "mcpServers": { "my-fs": { "command": "x" }, "my_fs": { "command": "y" } } }',
      where: "mcpServers.my_fs: ",
      parts: [/namespace "my_fs" is also used by server "my-fs"/],
    },
  ];
  for (const c of cases) {
    await t.step(`${c.name}: exit 1 with error: config <file>: <where>`, async () => {
      const file = await w.writeConfig(c.text);
      const prefix = `error: config ${file}: ${c.where.replace("{file}", file)}`;
      for (const args of [["ls"], ["call", "fs.read", "{}"], ["--json", "search", "x"]]) {
        const r = await w.mcpx(args);
        assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
        if (args[0] === "--json") {
          // Under --json stdout carries the same error as a document.
          const doc = JSON.parse(r.stdout);
          assert.equal(doc.ok, false);
          assert.equal(doc.error.code, "config");
          assert.ok(`error: ${doc.error.message}`.startsWith(prefix), r.stdout);
        } else {
          assert.equal(r.stdout, "");
        }
        assert.ok(r.stderr.startsWith(prefix), `${args.join(" ")}:\n${r.stderr}`);
        for (const part of c.parts) assert.match(r.stderr, part);
        assert.doesNotMatch(r.stderr, STACK_LINE);
        assert.doesNotMatch(r.stderr, /this is a bug in mcpx/);
      }
      assert.deepEqual(w.processes(), [], "no daemon starts for a broken config");
    });
  }

  await t.step("a config named by MCPX_CONFIG or --config is reported by its path", async () => {
    await w.writeConfig('{ "mcpServers": { "fs": { "command": "npx" } } }');
    await Deno.mkdir(`${w.dir}/elsewhere`);
    const other = await w.writeConfig(
      '{ "mcpServers": { "fs": { "command": "npx", "mcpx": { "idleTimeout": "soon" } } } }',
      "elsewhere/team.json",
    );
    const prefix = `error: config ${other}: mcpServers.fs.mcpx.idleTimeout: must be a duration`;
    const viaEnv = await w.mcpx(["ls"], { env: { MCPX_CONFIG: other } });
    const viaFlag = await w.mcpx(["--config", other, "ls"]);
    for (const r of [viaEnv, viaFlag]) {
      assert.equal(r.code, 1);
      assert.ok(r.stderr.startsWith(prefix), r.stderr);
    }
  });
});
