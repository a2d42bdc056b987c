/**
 * Runs once before the suite (`deno task test`): puts the pinned real servers
 * in the npx cache and the pinned bun and node in the tests' runtime folder,
 * one at a time. On a fresh machine (an empty HOME, npm cache and DENO_DIR)
 * the parallel tests would otherwise start the same `npx -y <package>` many
 * times at once, and concurrent npx installs of one package into one cache
 * can leave it half-written. With a warm cache each step costs about a second.
 *
 * A step that fails is reported and the suite still runs: the tests that need
 * that part then fail naming it.
 *
 * First, though, it generates again what `deno task gen` writes and compares it
 * with the checked-in files (dev/stale_generated.ts): the process tests run the
 * checked-in bundles, so a stale one would test old code. Any stale file stops
 * here, exit 1 before the suite runs, naming the files and the fix.
 *
 * @module
 */

import { CHROME_DEVTOOLS_MCP, SERVERS } from "../dev/real_servers.ts";
import { runtimeBinary } from "./_runtimes.ts";
import { staleGenerated } from "../dev/stale_generated.ts";

{
  const started = performance.now();
  const stale = await staleGenerated(new URL("../", import.meta.url));
  const ms = Math.round(performance.now() - started);
  if (stale.length) {
    console.error(
      `prepare: stale generated files, which the tests would run as they are:\n` +
        stale.map((path) => `  ${path}\n`).join("") +
        "run `deno task gen` and commit the result, then run the tests again",
    );
    Deno.exit(1);
  }
  console.error(`prepare: the generated files are current (${ms} ms)`);
}

const packages = [
  ...Object.values(SERVERS).map((argv) => argv[argv.length - 1]),
  CHROME_DEVTOOLS_MCP,
];

let failed = 0;
for (const pkg of packages) {
  const started = performance.now();
  const out = await new Deno.Command("npx", {
    args: ["-y", "-p", pkg, "true"],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output().catch((error: Error) => ({
    success: false,
    stderr: new TextEncoder().encode(error.message),
  }));
  const ms = Math.round(performance.now() - started);
  if (out.success) {
    console.error(`prepare: ${pkg} is in the npx cache (${ms} ms)`);
  } else {
    failed++;
    console.error(
      `prepare: npx could not fetch ${pkg}; the tests that start it will fail:\n` +
        new TextDecoder().decode(out.stderr).trim(),
    );
  }
}
for (const name of ["bun", "node"] as const) {
  const binary = await runtimeBinary(name);
  console.error(
    binary
      ? `prepare: ${name} for cross-runtime tests: ${binary}`
      : `prepare: no usable ${name}; its cross-runtime tests will fail`,
  );
  if (!binary) failed++;
}
if (failed) console.error(`prepare: ${failed} step(s) failed; running the suite anyway`);
