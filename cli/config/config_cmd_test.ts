import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../../core/io.ts";
import { CliContext } from "../context.ts";
import * as configCommand from "./config_cmd.ts";

interface Shown {
  settings: { name: string; value: unknown; source: string }[];
  paths: { stateDir: string; cacheDir: string };
}

Deno.test("config --json shows the paths.state and paths.cache in use, by either spelling", async (t) => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-config-cmd-" }));
  const run = async (env: Record<string, string>, argv: string[] = []) => {
    const io = memoryIo();
    // `.mcp.json` there is a project's: its settings apply untrusted only under `always`.
    const base = { HOME: dir, MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always" };
    const code = await main(["--json", "config", ...argv], io, { ...base, ...env }, dir);
    return { code, io };
  };
  const shown = async (env: Record<string, string>, argv: string[] = []) => {
    const { code, io } = await run(env, argv);
    assert.equal(code, 0, io.stderr);
    return JSON.parse(io.stdout) as Shown;
  };
  try {
    for (
      const [setting, key, names] of [
        ["paths.state", "stateDir", ["MCPX_PATHS_STATE", "MCPX_STATE_DIR"]],
        ["paths.cache", "cacheDir", ["MCPX_PATHS_CACHE", "MCPX_CACHE_DIR"]],
      ] as const
    ) {
      for (const variable of names) {
        await t.step(`${variable} sets ${setting} and ${key}`, async () => {
          const value = `${dir}/${variable.toLowerCase()}`;
          const out = await shown({ [variable]: value });
          const resolved = out.settings.find((s) => s.name === setting)!;
          assert.deepEqual([resolved.value, resolved.source], [value, `env:${variable}`]);
          assert.equal(out.paths[key], value);
        });
      }
      await t.step(`a flag for ${setting} wins over both spellings`, async () => {
        const flag = `--${setting.replace(".", "-")}`;
        const out = await shown({ [names[0]]: `${dir}/a`, [names[1]]: `${dir}/a` }, [
          flag,
          `${dir}/f`,
        ]);
        const resolved = out.settings.find((s) => s.name === setting)!;
        assert.deepEqual([resolved.value, resolved.source], [`${dir}/f`, `flag:${flag}`]);
        assert.equal(out.paths[key], `${dir}/f`);
      });
      await t.step(`${names.join(" and ")} disagreeing is an error naming both`, async () => {
        const { code, io } = await run({ [names[0]]: `${dir}/a`, [names[1]]: `${dir}/b` });
        assert.equal(code, 1);
        assert.match(io.stderr, new RegExp(`${names[0]}.*${names[1]}.*unset all but one`));
      });
    }
    await t.step(
      "a file's paths.state is ignored, and the warning names the variables",
      async () => {
        await Deno.writeTextFile(
          `${dir}/.mcp.json`,
          JSON.stringify({ mcpServers: {}, paths: { state: "/nowhere" } }),
        );
        const { code, io } = await run({});
        assert.equal(code, 0, io.stderr);
        const out = JSON.parse(io.stdout);
        assert.notEqual(out.paths.stateDir, "/nowhere");
        const warning = out.warnings.find((w: string) => w.startsWith("paths.state is set in"));
        assert.match(warning, /only from MCPX_PATHS_STATE or MCPX_STATE_DIR or --paths-state/);
        assert.match(warning, /daemons' sockets and logs/);
        assert.doesNotMatch(warning, /configuration is cached/);
      },
    );
    await t.step("a file's ignored paths.state is not shown as the value in use", async () => {
      const out = await shown({});
      const state = out.settings.find((s) => s.name === "paths.state")!;
      assert.deepEqual([state.value, state.source], [
        `${dir}/.local/state/mcpx`,
        "default (~/.local/state/mcpx)",
      ]);
      assert.equal(state.value, out.paths.stateDir);
    });
    await t.step("with nothing set, the rows show the directories in use", async () => {
      await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify({ mcpServers: {} }));
      const out = await shown({ XDG_CACHE_HOME: `${dir}/xdg-cache` });
      const row = (name: string) => out.settings.find((s) => s.name === name)!;
      assert.deepEqual([row("paths.state").value, row("paths.state").source], [
        out.paths.stateDir,
        "default (~/.local/state/mcpx)",
      ]);
      assert.deepEqual([row("paths.cache").value, row("paths.cache").source], [
        `${dir}/xdg-cache/mcpx`,
        "default ($XDG_CACHE_HOME/mcpx)",
      ]);
      const io = memoryIo();
      assert.equal(await main(["config"], io, { HOME: dir }, dir), 0, io.stderr);
      const line = io.stdout.split("\n").find((l) => l.startsWith("paths.cache "))!;
      assert.match(line, new RegExp(`"${dir}/\\.cache/mcpx"\\s+default \\(~/\\.cache/mcpx\\)`));
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("config --json shows a secret setting as (set), never its value", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-config-cmd-" }));
  try {
    const io = memoryIo();
    const env = { HOME: dir, MCPX_TRANSPORT_BEARER_TOKEN: "tok-do-not-print" };
    assert.equal(await main(["--json", "config"], io, env, dir), 0, io.stderr);
    assert.doesNotMatch(io.stdout, /tok-do-not-print/);
    const shown = (JSON.parse(io.stdout) as Shown).settings
      .find((s) => s.name === "transport.bearerToken")!;
    assert.deepEqual([shown.value, shown.source], ["(set)", "env:MCPX_TRANSPORT_BEARER_TOKEN"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("config handle() answers the settings; text() prints the warnings on stderr after the table", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-config-cmd-" }));
  try {
    await Deno.writeTextFile(
      `${dir}/.mcp.json`,
      JSON.stringify({ mcpServers: {}, catalog: { budgt: 5 } }),
    );
    const env = { HOME: dir, MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always" };
    const ctx = new CliContext({ io: memoryIo(), env, cwd: dir, flags: {} });
    const outcome = await configCommand.handle(ctx, {});
    assert.equal(outcome.kind, "ok");
    assert.ok("fingerprint" in outcome.value);
    const text = configCommand.text(outcome.value) as { out: string; err: string };
    assert.match(
      text.out,
      new RegExp(`^config: ${dir}/\\.mcp\\.json  fingerprint: \\S+\n\nSETTING`),
    );
    assert.match(text.err, /^warning: .*catalog\.budgt: unknown setting/);
    const schema = await configCommand.handle(ctx, { schema: true });
    assert.match(
      configCommand.text(schema.value) as string,
      /^SETTING\s+TYPE\s+DEFAULT\s+ENV\s+FLAG/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
