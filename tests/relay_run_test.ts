/**
 * A relayed `mcpx run` (decision 0069): the front prepares the run and the
 * thin client starts the script's runtime as its own child, so the script
 * has the caller's stdin and stdout, sees its own arguments, gets the signals
 * sent to `mcpx`, and ends when `mcpx` is killed; what it writes to stderr
 * goes through the front's record splitting and comes back in order.
 */

import assert from "node:assert/strict";
import { existsSync } from "../core/exists.ts";
import { background, commandLine, eventually, processesMarked, world } from "./_helpers.ts";

/** Says who started it, what it was given, reads stdin, logs, and exits with its first argument. */
const WHO = `const parent = Deno.readTextFileSync(\`/proc/\${Deno.ppid}/cmdline\`).split("\\0");
console.log("parent", parent.some((a) => a.endsWith("thin.bundle.js")) ? "thin" : parent.join(" "));
console.log("args", JSON.stringify(Deno.args));
console.log("stdin", JSON.stringify(await new Response(Deno.stdin.readable).text()));
console.error("a record");
await Deno.stderr.write(new TextEncoder().encode("raw stderr\\n"));
Deno.exit(Number(Deno.args[0]));
`;

/** Waits for SIGINT, says so, and ends with 5; its first write to the file says it runs. */
const WAITS = `Deno.addSignalListener("SIGINT", () => {
  console.log("interrupted");
  Deno.exit(5);
});
Deno.writeTextFileSync(Deno.args[0], "started");
await new Promise((resolve) => setTimeout(resolve, 60_000));
`;

Deno.test("a relayed run: the caller starts the runtime, with its streams, arguments, signals and lifetime", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  await Deno.writeTextFile(`${w.dir}/who.ts`, WHO);
  await Deno.writeTextFile(`${w.dir}/waits.ts`, WAITS);
  const launcher = `${w.dir}/.bin/mcpx`;

  await t.step("its output, stdin, arguments and exit code are the caller's", async () => {
    // The first command finds no front, runs whole and starts one; soon a run is relayed.
    const relayed = await eventually(async () => {
      const run = await w.mcpx(["run", "./who.ts", "0"]);
      assert.equal(run.code, 0, run.stderr);
      return run.stdout.startsWith("parent thin\n");
    }, 30_000);
    assert.ok(relayed, "no run was relayed to a front");
    const run = await w.mcpx(["run", "./who.ts", "4", "x y"], { stdin: "from the caller" });
    assert.equal(run.code, 4, run.stderr);
    assert.equal(
      run.stdout,
      'parent thin\nargs ["4","x y"]\nstdin "from the caller"\n',
      "the thin client is the runtime's parent, and passed it stdin",
    );
    assert.match(run.stderr, /ERROR a record\n/, "the client's record, rendered by the front");
    assert.match(run.stderr, /raw stderr\n/);
    const json = await w.mcpx(["--json", "run", "./who.ts", "0"]);
    const document = JSON.parse(json.stdout);
    assert.equal(document.exitCode, 0);
    assert.match(document.stdout, /^parent thin\n/, "under --json the front collects stdout");
  });

  await t.step("SIGINT to mcpx reaches the script, whose exit code is mcpx's", async () => {
    const started = `${w.dir}/started-int`;
    const mcpx = background(launcher, ["run", "./waits.ts", started], { env: w.env, cwd: w.dir });
    await using _ = mcpx;
    assert.ok(
      await eventually(() => existsSync(started) || mcpx.exited(), 60_000) && !mcpx.exited(),
      `the script did not start:\n${mcpx.output()}`,
    );
    assert.ok(commandLine(mcpx.pid).some((a) => a.endsWith("thin.bundle.js")), "relayed");
    Deno.kill(mcpx.pid, "SIGINT");
    const status = await mcpx.status;
    assert.equal(status.code, 5, mcpx.output());
    assert.match(mcpx.output(), /interrupted/);
  });

  await t.step(
    "a killed mcpx takes its script with it, and the front serves the next run",
    async () => {
      const started = `${w.dir}/started-kill`;
      const mcpx = background(launcher, ["run", "./waits.ts", started], { env: w.env, cwd: w.dir });
      await using _ = mcpx;
      assert.ok(
        await eventually(() => existsSync(started) || mcpx.exited(), 60_000) && !mcpx.exited(),
        `the script did not start:\n${mcpx.output()}`,
      );
      const launchers = `${w.dir}/.cache/mcpx/launchers/`;
      const script = () =>
        processesMarked(w.mark).filter((pid) => {
          const argv = commandLine(pid);
          return argv.at(-1) === started && argv.some((a) => a.startsWith(launchers));
        });
      assert.equal(script().length, 1, "the script's runtime runs");
      Deno.kill(mcpx.pid, "SIGKILL");
      await mcpx.status;
      assert.ok(await eventually(() => script().length === 0, 20_000), "the script outlived mcpx");
      const next = await w.mcpx(["run", "./who.ts", "0"]);
      assert.equal(next.code, 0, next.stderr);
      assert.match(next.stdout, /^parent thin\n/);
    },
  );
});
