/**
 * Every input mcpx reads whole goes through one bounded reader
 * (core/bounded_read.ts; issue 9, "Input has no size limit"): a named file
 * must be a regular file (a device or a pipe is refused before a byte is
 * read), and any input past `input.maxBytes` is refused naming the input,
 * the limit and the setting. Before, `mcpx call everything.echo @/dev/zero`
 * grew to 7.7 GB in 12 s and `yes | mcpx exec -` read until memory ran out:
 * each case here was killed at its time limit.
 */

import assert from "node:assert/strict";
import { mcpxArgv, type RunResult, SERVERS, STACK_LINE, type World, world } from "./_helpers.ts";

/** Long enough for a loaded machine, far shorter than reading forever. */
const LIMIT_MS = 60_000;

function refused(run: RunResult, message: RegExp): void {
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, message);
  assert.doesNotMatch(run.stderr, /bug in mcpx/);
  assert.doesNotMatch(run.stderr, STACK_LINE);
}

/** `mcpx <args>` run by the shell line `shell`, where `"$@"` is mcpx (`yes | "$@"`). */
async function piped(
  w: World,
  shell: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<RunResult> {
  // A group of its own, so a pipeline that outlives the limit is ended whole (`yes` too).
  const child = new Deno.Command("sh", {
    args: ["-c", shell, "sh", ...mcpxArgv(args)],
    env: { ...w.env, ...env },
    clearEnv: true,
    cwd: w.dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* ended meanwhile */ }
  }, LIMIT_MS);
  const out = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  const result = {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
  if (late) throw new Error(`${shell} (mcpx ${args.join(" ")}) ran past ${LIMIT_MS} ms`);
  return result;
}

async function everythingWorld(): Promise<World> {
  const w = await world();
  const [command, ...args] = SERVERS.everything;
  await w.writeConfig({ mcpServers: { everything: { command, args } } });
  await Deno.writeTextFile(
    `${w.dir}/job.ts`,
    `Deno.writeTextFileSync(${JSON.stringify(`${w.dir}/ran`)}, "1");\n`,
  );
  return w;
}

const SMALL = { MCPX_INPUT_MAX_BYTES: String(1024 * 1024) };

Deno.test("mcpx call: arguments from @file and - are bounded, a device or a pipe is refused", async (t) => {
  await using w = await everythingWorld();
  await t.step("@/dev/zero is a character device, refused before a byte is read", async () => {
    refused(
      await w.mcpx(["call", "everything.echo", "@/dev/zero"], { timeoutMs: LIMIT_MS }),
      /error: the arguments file \/dev\/zero: \/dev\/zero is a character device, not a regular file/,
    );
  });
  await t.step("@<fifo> is refused instead of waiting for a writer", async () => {
    const fifo = `${w.dir}/args.pipe`;
    new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
    refused(
      await w.mcpx(["call", "everything.echo", `@${fifo}`], { timeoutMs: LIMIT_MS }),
      /is a named pipe \(FIFO\), not a regular file/,
    );
  });
  await t.step("a file over the limit names it, the limit and the setting", async () => {
    await Deno.writeTextFile(`${w.dir}/big.json`, `{"message":"${"x".repeat(1024 * 1024)}"}`);
    refused(
      await w.mcpx(["call", "everything.echo", "@big.json"], { env: SMALL, timeoutMs: LIMIT_MS }),
      /error: the arguments file big\.json holds more than 1 MiB, the limit input\.maxBytes sets .*MCPX_INPUT_MAX_BYTES/,
    );
  });
  await t.step("`yes |` on stdin stops at the default 64 MiB", async () => {
    refused(
      await piped(w, 'yes | "$@"', ["call", "everything.echo", "-"]),
      /error: the arguments on stdin holds more than 64 MiB, the limit input\.maxBytes sets/,
    );
  });
});

Deno.test("mcpx exec -: the program on stdin is bounded, even from /dev/zero", async () => {
  await using w = await everythingWorld();
  refused(
    await piped(w, '"$@" < /dev/zero', ["exec", "-"], SMALL),
    /error: the program on stdin holds more than 1 MiB/,
  );
});

Deno.test("mcpx run: --env-file, --prefix sources and placeholder files are bounded; nothing runs", async (t) => {
  await using w = await everythingWorld();
  const ran = () => {
    try {
      Deno.statSync(`${w.dir}/ran`);
      return true;
    } catch {
      return false;
    }
  };
  await t.step("--env-file /dev/zero", async () => {
    refused(
      await w.mcpx(["run", "--env-file", "/dev/zero", "./job.ts"], { timeoutMs: LIMIT_MS }),
      /--env-file \/dev\/zero: \/dev\/zero is a character device, not a regular file/,
    );
  });
  await t.step("--prefix naming a file over the limit", async () => {
    await Deno.writeTextFile(`${w.dir}/prefix.ts`, `// ${"x".repeat(1024 * 1024)}\n`);
    refused(
      await w.mcpx(["run", "--prefix", "./prefix.ts", "./job.ts"], {
        env: SMALL,
        timeoutMs: LIMIT_MS,
      }),
      /--prefix: .*prefix\.ts holds more than 1 MiB, the limit input\.maxBytes sets/,
    );
  });
  await t.step("a placeholder file that is /dev/zero", async () => {
    refused(
      await w.mcpx(["run", "./job.ts"], {
        env: { MCPX_PATHS_PLACEHOLDERS: "/dev/zero" },
        timeoutMs: LIMIT_MS,
      }),
      /placeholder file \/dev\/zero: \/dev\/zero is a character device, not a regular file/,
    );
  });
  assert.equal(ran(), false, "the script ran although its inputs were refused");
});
