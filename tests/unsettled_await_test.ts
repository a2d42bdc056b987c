/**
 * A top-level await that can never settle is one error in mcpx's words
 * under deno, bun and node (issue 9; decision 0024). Before: deno printed
 * its own coloured "Top-level await promise never resolved" with the
 * launcher's frame, piped and under --json alike; node printed "Warning:
 * Detected unsettled top-level await at …launchers/….mts" and exited 13; bun
 * spun at full speed forever.
 */

import assert from "node:assert/strict";
import { type RunResult, type World, world } from "./_helpers.ts";
import { runtimeBinary } from "./_runtimes.ts";

const MESSAGE = "error: the script's top-level await never settled: it waits on a promise that " +
  "nothing left in the script can settle";

/** Far past a run's start on a loaded machine; bun used to run forever. */
const LIMIT_MS = 90_000;

function reported(r: RunResult, runtime: string): void {
  assert.equal(r.code, 1, `${runtime}: ${r.stdout}${r.stderr}`);
  assert.ok(r.stderr.includes(MESSAGE), `${runtime}: ${r.stderr}`);
  assert.ok(!r.stderr.includes("\x1b["), `${runtime}: colours in ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /launchers\/|Top-level await promise|unsettled top-level/);
}

for (const runtime of ["deno", "bun", "node"] as const) {
  Deno.test(`under ${runtime}, a top-level await that never settles is reported by mcpx`, async (t) => {
    const binary = runtime === "deno" ? Deno.execPath() : await runtimeBinary(runtime);
    assert.ok(binary, `no ${runtime} could be found or installed (tests/_runtimes.ts)`);
    await using w: World = await world();
    await w.writeConfig({ mcpServers: {} });
    const env = { PATH: `${binary.slice(0, binary.lastIndexOf("/"))}:${w.env.PATH}` };
    const mcpx = (args: string[]) =>
      w.mcpx([args[0], "--runtime", runtime, ...args.slice(1)], { env, timeoutMs: LIMIT_MS });

    await t.step("mcpx exec 'await new Promise(()=>{})' (the entry never returns)", async () => {
      const r = await mcpx(["exec", "await new Promise(() => {})"]);
      reported(r, runtime);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    });
    await t.step("a script's own top-level await, after it printed", async () => {
      await Deno.writeTextFile(
        `${w.dir}/stall.ts`,
        'console.log("before");\nawait new Promise(() => {});\nconsole.log("after");\n',
      );
      const r = await mcpx(["run", "--no-capture-console", "./stall.ts"]);
      reported(r, runtime);
      assert.equal(r.stdout, "before\n");
    });
    await t.step("--json: the error is the run's error, not stderr text", async () => {
      const r = await mcpx(["--json", "exec", "await new Promise(() => {})"]);
      const doc = JSON.parse(r.stdout);
      assert.equal(doc.ok, false);
      assert.equal(doc.exitCode, 1);
      assert.equal(doc.stderr, "");
      const errors = doc.logs.filter((l: { event: string }) => l.event === "run.error");
      assert.equal(errors.length, 1, r.stdout);
      assert.ok(`error: ${errors[0].msg}`.startsWith(MESSAGE), errors[0].msg);
    });
    await t.step("an await that settles later is not mistaken for one", async () => {
      const r = await mcpx(["exec", 'await new Promise((r) => setTimeout(r, 300)); "done"']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "done\n");
    });
  });
}
