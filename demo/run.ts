/**
 * `deno task demo`: mcpx's main job on the bundled demo configuration of
 * real servers. Prints each command and what an agent would see, with state,
 * cache and demo files in a temporary folder that is removed afterwards.
 *
 * Every step must exit 0: the demo ends with a line naming the steps that
 * did not, and exits 1 when any did (so CI and a new user see a failure,
 * not a transcript to read).
 *
 * @module
 */

import { fileURLToPath as fromFileUrl } from "node:url";

const root = fromFileUrl(new URL("..", import.meta.url));
const tmp = await Deno.makeTempDir({ prefix: "mcpx-demo-" });
await Deno.writeTextFile(`${tmp}/hello.txt`, "Hello from the mcpx demo.\n");
// A named script, where an agent would write one.
await Deno.mkdir(`${tmp}/.mcpx/scripts`, { recursive: true });
await Deno.copyFile(`${root}demo/scripts/count-words.ts`, `${tmp}/.mcpx/scripts/count-words.ts`);
const env = {
  ...Deno.env.toObject(),
  MCPX_CONFIG: `${root}demo/mcpx.json`,
  MCPX_DEMO_DIR: tmp,
  MCPX_STATE_DIR: `${tmp}/.state`,
  MCPX_CACHE_DIR: `${tmp}/.cache`,
};

/** The steps that exited non-zero, as typed. */
const failed: string[] = [];

async function mcpx(...args: string[]): Promise<void> {
  const typed = `mcpx ${args.map((a) => (/[\s{}"']/.test(a) ? `'${a}'` : a)).join(" ")}`;
  console.log(`\n$ ${typed}`);
  const started = performance.now();
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${root}deno.json`, `${root}cli/mcpx.bundle.js`, ...args],
    env,
    cwd: tmp,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  const ms = Math.round(performance.now() - started);
  console.log(`  (exit ${code}, ${ms} ms)`);
  if (code !== 0) failed.push(`${typed} (exit ${code})`);
}

try {
  // Cold: starts each server's first listing and answers at once; a server still starting
  // (npx downloading it) is shown as starting, with the command that waits for it.
  await mcpx("ls");
  // That command: waits for those first starts, then answers from the cache they filled.
  await mcpx("ls", "--wait");
  await mcpx("search", "read", "file");
  await mcpx("types", "everything.echo", "everything.get-sum");
  await mcpx("call", "everything.echo", '{"message":"hello from mcpx"}');
  await mcpx("call", "fs.read_text_file", JSON.stringify({ path: `${tmp}/hello.txt` }));
  await mcpx("catalog", "--budget", "400");
  await mcpx("scripts");
  await mcpx("run", "count-words", "hello.txt"); // many calls, one printed result
  await mcpx("exec", "everything.get_sum({ a: 40, b: 2 })");
  await mcpx("status");
} finally {
  await mcpx("stop");
  await Deno.remove(tmp, { recursive: true });
}

if (failed.length) {
  console.error(
    `\ndemo failed: ${failed.length} step(s) did not exit 0:\n  ${failed.join("\n  ")}`,
  );
  Deno.exit(1);
}
console.log("\ndemo ok: every step exited 0");
