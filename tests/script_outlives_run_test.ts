/**
 * A script never outlives its `mcpx run` (issue 9; decision 0024). Before,
 * `kill -HUP` or `kill -9` of mcpx left the runtime re-parented to pid 1,
 * running to its end: SIGHUP was not passed on, and SIGKILL cannot be. Now
 * SIGHUP is forwarded like SIGINT and SIGTERM, and a runtime whose mcpx is
 * gone gets SIGTERM from the kernel (runner/death_signal.ts), or, in the
 * bubblewrap sandbox, is ended with it (`--die-with-parent`, which held
 * before too). Under deno, bun and node.
 */

import assert from "node:assert/strict";
import { backgroundMcpx, commandLine, eventually, processesMarked, world } from "./_helpers.ts";
import { runtimeBinary } from "./_runtimes.ts";

/** Counts for a minute into the file it is given; its first write says it runs. */
const FOREVER = `import { writeFileSync } from "node:fs";
const file = globalThis.Deno ? Deno.args[0] : process.argv.at(-1);
for (let i = 0; i < 60; i++) {
  writeFileSync(file, String(i));
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
`;

const RUNTIMES = ["deno", "bun", "node"] as const;

/** A level narrower than `all` that each runtime can enforce, so the script runs sandboxed. */
const SANDBOXED = {
  deno: "read,write",
  bun: "read,write,env,run,sys,ffi",
  node: "read,write,net,env,sys",
} as const;

for (const runtime of RUNTIMES) {
  Deno.test(`a script under ${runtime} ends when its mcpx is killed or hung up on`, async (t) => {
    const binary = runtime === "deno" ? Deno.execPath() : await runtimeBinary(runtime);
    assert.ok(binary, `no ${runtime} could be found or installed (tests/_runtimes.ts)`);
    await using w = await world();
    await w.writeConfig({ mcpServers: {} });
    await Deno.writeTextFile(`${w.dir}/forever.ts`, FOREVER);
    const env = { PATH: `${binary.slice(0, binary.lastIndexOf("/"))}:${w.env.PATH}` };
    const launchers = `${w.dir}/.cache/mcpx/launchers/`;
    /** One run's processes: the runtime (or bwrap and what runs inside) on a launcher, given `count`. */
    const scriptProcesses = (count: string) =>
      processesMarked(w.mark).filter((pid) => {
        const argv = commandLine(pid);
        return argv.at(-1) === count && argv.some((a) => a.startsWith(launchers));
      });

    const cases = [
      { signal: "SIGKILL", level: "all" },
      { signal: "SIGHUP", level: "all" },
      { signal: "SIGKILL", level: SANDBOXED[runtime] },
    ] as const;
    for (const { signal, level } of cases) {
      await t.step(`${signal} of mcpx, script.permissions ${level}`, async () => {
        // Also what tells this run's processes from the others'.
        const count = `${w.dir}/count-${signal}-${level}`;
        const mcpx = backgroundMcpx(
          w,
          ["run", "--runtime", runtime, "--script-permissions", level, "./forever.ts", count],
          { env },
        );
        await using _ = mcpx;
        const started = await eventually(async () => {
          try {
            return (await Deno.readTextFile(count)) !== "";
          } catch {
            return mcpx.exited();
          }
        }, 90_000);
        assert.ok(started && !mcpx.exited(), `the script did not start:\n${mcpx.output()}`);
        assert.ok(scriptProcesses(count).length > 0, "the script's runtime was not found");

        Deno.kill(mcpx.pid, signal);
        const status = await mcpx.status;
        if (signal === "SIGHUP") {
          // Passed on: mcpx outlived the signal and reports how the script ended.
          assert.equal(status.signal, null, `mcpx died of ${status.signal}:\n${mcpx.output()}`);
          assert.equal(status.code, 129, mcpx.output());
        }
        const ended = await eventually(() => scriptProcesses(count).length === 0, 20_000);
        const left = scriptProcesses(count).map((pid) => commandLine(pid).join(" "));
        assert.ok(ended, `the script outlived mcpx (${signal}): ${left.join("; ")}`);
      });
    }
  });
}
