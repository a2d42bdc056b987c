/**
 * How to run mcpx from a checkout, for the tests and the benches alike: both
 * start the CLI the way the installed `mcpx` starts it, so neither measures or
 * checks a way of running it that users never take. It lives here, below
 * both, so that bench/ imports nothing from tests/ (issue 26).
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** This checkout's root folder, ending in `/`. */
export const ROOT: string = fileURLToPath(new URL("../", import.meta.url));

/** The module the installed `mcpx` runs, relative to a checkout (decision 0027). */
export const MCPX_ENTRY = "cli/mcpx.bundle.js";

/**
 * argv of `mcpx <args>` run from the checkout at `root` the way the installed
 * `mcpx` runs it: `deno run -A --config <root>deno.json <root>cli/mcpx.bundle.js <args>`.
 * A checkout from before the bundle (bench/ab.ts's baseline) runs its `cli/main.ts`.
 *
 * @param args The CLI's arguments.
 * @param root The checkout, ending in `/` (default: this one, {@link ROOT}).
 * @returns The argv, the deno executable first.
 *
 * @example
 * ```ts
 * import { mcpxArgv } from "./mcpx_argv.ts";
 * const argv = mcpxArgv(["ls"], "/nowhere/");
 * if (argv.at(-2) !== "/nowhere/cli/main.ts" || argv.at(-1) !== "ls") throw new Error();
 * ```
 */
export function mcpxArgv(args: string[] = [], root: string = ROOT): string[] {
  return denoRunArgv(root, mcpxEntry(root), args);
}

/** The installed `mcpx`'s launcher, relative to a checkout (decision 0068). */
export const MCPX_LAUNCHER = "cli/mcpx";

/**
 * argv of `mcpx <args>` as users run it: the launcher (cli/mcpx), which
 * relays a warm command off a terminal to the front process and runs any
 * other as {@link mcpxArgv} does. `deno` must be on PATH (the launcher runs it
 * by name, as an install with `deno` on PATH does). A checkout from before the
 * launcher runs {@link mcpxArgv}.
 *
 * @param args The CLI's arguments.
 * @param root The checkout, ending in `/` (default: this one, {@link ROOT}).
 * @returns The argv, the launcher first.
 */
export function launcherArgv(args: string[] = [], root: string = ROOT): string[] {
  try {
    Deno.statSync(`${root}${MCPX_LAUNCHER}`);
  } catch {
    return mcpxArgv(args, root);
  }
  return [`${root}${MCPX_LAUNCHER}`, ...args];
}

/** {@link MCPX_ENTRY}, or `cli/main.ts` in a checkout that has no bundle. */
function mcpxEntry(root: string): string {
  try {
    Deno.statSync(`${root}${MCPX_ENTRY}`);
    return MCPX_ENTRY;
  } catch {
    return "cli/main.ts";
  }
}

/**
 * argv that runs `root` + `file` with all permissions and `root`'s deno.json, then `args`.
 *
 * @param root The checkout, ending in `/`.
 * @param file The module to run, relative to `root`.
 * @param args What follows the module: its own arguments.
 */
export function denoRunArgv(root: string, file: string, args: string[]): string[] {
  return [Deno.execPath(), "run", "-A", "--config", `${root}deno.json`, `${root}${file}`, ...args];
}
