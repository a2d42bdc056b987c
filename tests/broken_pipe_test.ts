/**
 * Output to a reader that goes away (`mcpx … | head -c 10`) ends quietly for
 * run and exec under every runtime, as it does for `mcpx call`: no BrokenPipe
 * or EPIPE stack trace, exit 0, and the script still runs to its end (issue 8,
 * "Scripts and exec"; decision 0013).
 */

import assert from "node:assert/strict";
import { mcpxArgv, STACK_LINE, world } from "./_helpers.ts";
import { runtimeBinary } from "./_runtimes.ts";

/** Emits many lines, returns a large text, then leaves a mark: the reader is long gone by then. */
const SCRIPT = `import { writeFileSync } from "node:fs";
for (let i = 0; i < 5000; i++) emit({ i, pad: "y".repeat(100) });
export default function main() {
  writeFileSync(process.env.MARK!, "ended");
  return "x".repeat(1_000_000);
}
`;

/** `mcpx <args> | head -c 10` in bash: mcpx's own exit code, its stderr, and what head printed. */
async function intoHead(
  env: Record<string, string>,
  cwd: string,
  args: string[],
): Promise<{ code: number; head: string; stderr: string }> {
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      '"$@" | head -c 10; exit "${PIPESTATUS[0]}"',
      "bash",
      ...mcpxArgv(args),
    ],
    env,
    clearEnv: true,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, head: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

function assertQuiet(r: { code: number; head: string; stderr: string }, what: string): void {
  assert.equal(r.code, 0, `${what}: exit ${r.code}\n${r.stderr}`);
  assert.equal(r.head.length, 10, what);
  assert.doesNotMatch(r.stderr, /BrokenPipe|EPIPE|Broken pipe/, `${what}: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, STACK_LINE, `${what}: ${r.stderr}`);
}

for (const runtime of ["deno", "bun", "node"] as const) {
  Deno.test(`run under ${runtime} into a closed pipe ends quietly and the script finishes`, async () => {
    const binary = runtime === "deno" ? Deno.execPath() : await runtimeBinary(runtime);
    assert.ok(binary, `no ${runtime} could be found or installed (tests/_runtimes.ts)`);
    await using w = await world();
    await w.writeConfig({ mcpServers: {} });
    await Deno.writeTextFile(`${w.dir}/loud.ts`, SCRIPT);
    const dir = binary.slice(0, binary.lastIndexOf("/"));
    const mark = `${w.dir}/ended-${runtime}`;
    const env = { ...w.env, PATH: `${dir}:${w.env.PATH}`, MARK: mark };
    assertQuiet(await intoHead(env, w.dir, ["run", "--runtime", runtime, "./loud.ts"]), runtime);
    assert.equal(await Deno.readTextFile(mark), "ended", "the script ran to its end");
  });
}

Deno.test("exec and --json into a closed pipe end quietly; a file still gets everything", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  assertQuiet(await intoHead(w.env, w.dir, ["exec", '"x".repeat(1_000_000)']), "exec");
  assertQuiet(
    await intoHead(w.env, w.dir, ["--json", "exec", '"x".repeat(1_000_000)']),
    "--json exec",
  );
  assertQuiet(await intoHead(w.env, w.dir, ["--help"]), "--help");
  // Not a pipe: the script writes to the file itself, all of it.
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      '"$@" > out.txt',
      "bash",
      ...mcpxArgv(["exec", '"x".repeat(1_000_000)']),
    ],
    env: w.env,
    clearEnv: true,
    cwd: w.dir,
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.equal((await Deno.readTextFile(`${w.dir}/out.txt`)).length, 1_000_001);
});
