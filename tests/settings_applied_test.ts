/**
 * The settings spec 000 names in "Where a setting is read" and "Search paths"
 * are not only declared but applied: `logging.dir` moves the durable log,
 * `script.typecheck` turns on `--typecheck`, `paths.config` decides where the
 * configuration is searched, `paths.scripts` takes a list with a null splice
 * point from a file, and `plumbing.allowTsJsOverlap` lets `foo.ts` beside
 * `foo.js` run the `.ts`.
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

Deno.test("logging.dir from the configuration file moves the durable log, and mcpx log reads it there", async () => {
  await using w = await world();
  await w.writeConfig({
    logging: { dir: "./my-logs" },
    mcpServers: { fx: fixtureServer() },
  });
  const call = await w.mcpx(["call", "fx.echo", '{"text":"hi"}']);
  assert.equal(call.code, 0, call.stderr);
  await w.mcpx(["stop"]);
  const files = [...Deno.readDirSync(`${w.dir}/my-logs`)].map((e) => e.name);
  assert.ok(files.some((f) => f.endsWith(".jsonl")), `my-logs holds ${files}`);
  const statePath = `${w.dir}/.state/mcpx/logs`;
  assert.throws(
    () => Deno.statSync(statePath),
    Deno.errors.NotFound,
    "nothing under the state dir",
  );
  const log = await w.json<{ records: { event: string }[] }>(["log", "--event", "call.end"]);
  assert.equal(log.records.length, 1, JSON.stringify(log));
});

Deno.test("script.typecheck in the configuration type-checks before anything runs", async () => {
  await using w = await world();
  await w.writeConfig({ script: { typecheck: true }, mcpServers: {} });
  await Deno.writeTextFile(
    `${w.dir}/bad.ts`,
    `const n: number = "text";\nconsole.log("ran", n);\n`,
  );
  const refused = await w.mcpx(["run", "./bad.ts"]);
  assert.equal(refused.code, 1, refused.stderr);
  assert.doesNotMatch(refused.stdout, /ran/);
  assert.match(refused.stderr, /does not type-check/);
  const off = await w.mcpx(["run", "./bad.ts"], { env: { MCPX_SCRIPT_TYPECHECK: "false" } });
  assert.equal(off.code, 0, off.stderr);
  assert.match(off.stdout, /ran text/);
});

Deno.test("paths.config decides where the configuration is searched", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { near: { command: "near", disabled: true } } });
  await Deno.mkdir(`${w.dir}/conf`);
  const far = await w.writeConfig(
    { mcpServers: { far: { command: "far", disabled: true } } },
    "conf/config.json",
  );
  const namespaces = async (env: Record<string, string>) => {
    const ls = await w.json<{ config: string; namespaces: { namespace: string }[] }>(["ls"], {
      env,
    });
    return [ls.config, ls.namespaces.map((n) => n.namespace).join()];
  };

  await t.step(
    "a directory place is searched, and without null it replaces the search",
    async () => {
      assert.deepEqual(await namespaces({ MCPX_PATHS_CONFIG: "conf" }), [far, "far"]);
    },
  );
  await t.step("the flag works the same way", async () => {
    const ls = await w.json(["--paths-config", `${w.dir}/conf/config.json`, "ls"]);
    assert.equal(ls.config, far);
  });
  await t.step("an empty entry splices the built-in search in where it stands", async () => {
    assert.deepEqual(await namespaces({ MCPX_PATHS_CONFIG: ":conf" }), [
      `${w.dir}/.mcp.json`,
      "near",
    ]);
  });
  await t.step("with nothing found, the command says where it looked", async () => {
    const r = await w.mcpx(["call", "far.x", "{}"], { env: { MCPX_PATHS_CONFIG: "nowhere" } });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      new RegExp(`no configuration file found \\(looked at ${w.dir}/nowhere\\)`),
    );
  });
  await t.step("set in a file it is ignored, and a warning says so", async () => {
    await w.writeConfig({
      paths: { config: ["conf"] },
      mcpServers: { near: { command: "near", disabled: true } },
    });
    const ls = await w.json<{ config: string; warnings: string[] }>(["ls"]);
    assert.equal(ls.config, `${w.dir}/.mcp.json`);
    assert.ok(
      ls.warnings.some((m) => /paths\.config is set in .*read only from MCPX_PATHS_CONFIG/.test(m)),
      JSON.stringify(ls.warnings),
    );
  });
});

Deno.test("paths.scripts from a file is a list whose null stands for the built-in places", async () => {
  await using w = await world();
  await w.writeConfig({ paths: { scripts: ["./mine", null] }, mcpServers: {} });
  await Deno.mkdir(`${w.dir}/mine`);
  await Deno.mkdir(`${w.dir}/.mcpx/scripts`, { recursive: true });
  await Deno.writeTextFile(`${w.dir}/mine/first.ts`, `console.log("mine");\n`);
  await Deno.writeTextFile(`${w.dir}/.mcpx/scripts/second.ts`, `console.log("built-in");\n`);
  const { dirs, scripts } = await w.json<{ dirs: string[]; scripts: { name: string }[] }>([
    "scripts",
  ]);
  assert.equal(dirs[0], `${w.dir}/mine`);
  assert.equal(dirs[1], `${w.dir}/.mcpx/scripts`);
  assert.deepEqual(scripts.map((s) => s.name), ["first", "second"]);
});

Deno.test("plumbing.allowTsJsOverlap lets foo.ts beside foo.js run the .ts", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  await Deno.mkdir(`${w.dir}/.mcpx/scripts`, { recursive: true });
  await Deno.writeTextFile(`${w.dir}/.mcpx/scripts/dup.ts`, `console.log("ts");\n`);
  await Deno.writeTextFile(`${w.dir}/.mcpx/scripts/dup.js`, `console.log("js");\n`);
  const refused = await w.mcpx(["run", "dup"]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /script "dup" is both .*dup\.ts and .*dup\.js/);
  const allowed = await w.mcpx(["run", "dup"], {
    env: { MCPX_PLUMBING_ALLOW_TS_JS_OVERLAP: "true" },
  });
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(allowed.stdout, "ts\n");
  const listed = await w.json<
    { scripts: { path: string; shadowedBy?: string; conflictsWith?: string }[] }
  >(
    ["scripts"],
    { env: { MCPX_PLUMBING_ALLOW_TS_JS_OVERLAP: "true" } },
  );
  const js = listed.scripts.find((s) => s.path.endsWith("dup.js"))!;
  assert.equal(js.conflictsWith, undefined);
  assert.match(js.shadowedBy ?? "", /dup\.ts$/);
});
