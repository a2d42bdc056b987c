/**
 * The entry of cli/mcpx.bundle.js, the `mcpx` users run: the warm commands
 * (the ones an agent runs many times per task) are bundled into that one
 * file with everything they reach, so a start reads one module; any other
 * command line goes, whole and before anything else runs, to cli/main.ts
 * from the sources (decision 0027).
 *
 * A command module loaded from the sources next to the bundle would bring
 * its own copy of every module it imports (another `McpxError` class, so
 * the error report's `instanceof` would fail): the bundle therefore never
 * loads one, and only its entry chooses between itself and the sources.
 *
 * @module
 */

import { WARM_COMMANDS } from "./_warm.gen.ts";
import { commandNameOf, onTerminal, runCommandLine } from "./command_line.ts";

/**
 * The commands the bundle holds, with their modules: the ops declared `warm`
 * (ops/op.ts `CliSpec.warm`), imported by literal specifiers the bundler
 * follows (cli/_warm.gen.ts, written by `deno task gen`).
 */
export { WARM_COMMANDS } from "./_warm.gen.ts";

/** How the front process (cli/relay/front.ts) runs a relayed command line with the bundle's code. */
export { commandNameOf, runCommandLine } from "./command_line.ts";

/** How the front keeps the schema cache files it has read, while they are unchanged. */
export { keepReads } from "../engine/kept_reads.ts";

/**
 * Whether the bundle runs `argv` itself: a warm command, no command (`mcpx`
 * off a terminal, `--version`, `--help`), or a word that is no command (its
 * usage error). `mcpx` alone on a terminal is the browser (`tui`), which the
 * bundle does not hold.
 *
 * @param argv Arguments after `mcpx`.
 * @param terminal Whether stdin and stdout are terminals (default: this process's).
 */
export function runsWarm(argv: string[], terminal: boolean = onTerminal()): boolean {
  let name: string | undefined;
  try {
    name = commandNameOf(argv, terminal);
  } catch {
    return true;
  }
  return name === undefined || Object.hasOwn(WARM_COMMANDS, name);
}

if (import.meta.main) {
  if (runsWarm(Deno.args)) {
    Deno.exit(await runCommandLine(Deno.args, (name) => WARM_COMMANDS[name]()));
  }
  // Computed, so that neither the bundler nor Deno's start-up reads the sources.
  const sources = new URL("./main.ts", import.meta.url).href;
  const { main } = await import(sources);
  Deno.exit(await main(Deno.args));
}
