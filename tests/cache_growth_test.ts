/**
 * The cache does not grow without end (issue 9; decision 0024). Before,
 * every `mcpx exec` left its program (the inline code, which may hold a
 * secret) in `<cache>/exec/<fp>/`, and launchers, generated clients, schema
 * caches and compiled configurations were never removed: 27 MB after ~150
 * runs. Now an exec program lasts as long as its run, and the daemon removes
 * what was unused for `cache.maxAge` when it starts and hourly after.
 */

import assert from "node:assert/strict";
import { eventually, type World, world } from "./_helpers.ts";

const DAY = 86_400_000;

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory) out.push(...filesUnder(`${dir}/${entry.name}`, `${path}/`));
      else out.push(path);
    }
  } catch { /* none */ }
  return out;
}

const execPrograms = (w: World) =>
  filesUnder(`${w.dir}/.cache/mcpx/exec`).filter((p) => /\/exec-[^/]*$/.test(p));

Deno.test("mcpx exec leaves no program behind, whether it succeeds, fails or prints JSON", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  const secret = "tok-" + crypto.randomUUID();
  const ok = await w.mcpx(["exec", `const token = ${JSON.stringify(secret)}; token.length`]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, `${secret.length}\n`);
  const failed = await w.mcpx(["exec", 'throw new Error("no")']);
  assert.equal(failed.code, 1);
  const json = await w.json(["exec", "40 + 2"]);
  assert.equal(json.result, 42);
  assert.deepEqual(execPrograms(w), []);
  for (const path of filesUnder(`${w.dir}/.cache/mcpx`)) {
    const text = await Deno.readTextFile(`${w.dir}/.cache/mcpx/${path}`);
    assert.ok(!text.includes(secret), `${path} holds the exec code's secret`);
  }
});

Deno.test("the daemon prunes cache entries unused for cache.maxAge when it starts", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  const cache = `${w.dir}/.cache/mcpx`;
  const old = [
    "launchers/0123456789abcdef0123456789abcdef.ts",
    "launchers/0123456789abcdef0123456789abcdef.ok",
    "clients/0123456789abcdef0123456789abcdef.ts",
    "schemas-0123456789abcdef.json",
    "config-0123456789abcdef.json",
    "exec/0123456789abcdef/mcpx-client.ts",
    "exec/fedcba9876543210/exec-0123456789abcdef01234567.ts",
  ];
  const recent = ["launchers/fedcba9876543210fedcba9876543210.ts", "clients/fedcba98.ts"];
  const then = (Date.now() - 30 * DAY) / 1000;
  for (const path of [...old, ...recent]) {
    const full = `${cache}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, "// left by an earlier run\n");
    if (old.includes(path)) await Deno.utime(full, then, then);
  }
  await Deno.utime(`${cache}/exec/0123456789abcdef`, then, then);

  // Any command that starts the daemon.
  const r = await w.mcpx(["exec", "1"]);
  assert.equal(r.code, 0, r.stderr);
  const left = () => old.filter((p) => filesUnder(cache).includes(p));
  assert.ok(await eventually(() => left().length === 0, 30_000), `still there: ${left()}`);
  for (const path of recent) assert.ok(filesUnder(cache).includes(path), `${path} was removed`);
  assert.ok(!filesUnder(`${cache}/exec`).some((p) => p.startsWith("0123456789abcdef/")));
});
