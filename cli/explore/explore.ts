/**
 * `mcpx explore`: a prompt loop over the discovery commands, for a person
 * (spec 000, "The explorer"; the op is ops/explore_ops.ts; decision 0082).
 * Each line is run as the mcpx command line it stands for, through the same
 * parser, handlers and renderers (cli/command_line.ts `runCommandLine`), in
 * this process, talking to the daemon as that command would; the loop is
 * cli/explore/explore_loop.ts.
 *
 * Whether a person is there is asked of the kernel: `Deno.stdin.isTerminal()`
 * is isatty(3), which on Linux is the TCGETS ioctl (tcgetattr), answered
 * only by a terminal. A file-type test would call `/dev/null` interactive,
 * since it is a character device, and block on a prompt nobody answers
 * (spec 000, "The explorer"). Off a terminal the loop reads one command per
 * line and prints no prompt.
 *
 * The handler's output is the transcript itself, written as it goes: it ends
 * `exited(0)` at `quit`, `exit` or the end of input.
 *
 * @module
 */

import { CliContext } from "../context.ts";
import { exited, type Outcome } from "../../ops/outcome.ts";
import type { Io } from "../../core/io.ts";
import { inputLimit } from "../../config/input_limit.ts";
import { runCommandLine } from "../command_line.ts";
import { loadCommand } from "../commands.ts";
import { LineReader } from "./line_reader.ts";
import { exploreLoop } from "./explore_loop.ts";
import { globalWords } from "./explore_globals.ts";

/** Drops what it is given: the namespaces lookup's own warnings are the commands' to print. */
const QUIET: Io = {
  out() {},
  err() {},
  readStdin: () => Promise.resolve(""),
};

/**
 * Runs the explorer on the process's stdin until `quit`, `exit` or the end of input.
 *
 * @returns `exited(0)`; `exited(1)` when a line passed `input.maxBytes`.
 */
export async function handle(ctx: CliContext, _input: Record<string, never>): Promise<Outcome> {
  const options = ctx.optionsWith({});
  const terminal = Deno.stdin.isTerminal();
  const lines = new LineReader(
    (buffer) => Deno.stdin.read(buffer),
    inputLimit(await ctx.setting("input.maxBytes")),
  );
  const code = await exploreLoop(ctx.io, {
    terminal,
    nextLine: () => lines.next(),
    run: (argv, io, signal) =>
      runCommandLine(argv, loadCommand, io, ctx.env, ctx.cwd, {
        signal,
        ...(ctx.callerPid !== undefined ? { callerPid: ctx.callerPid } : {}),
      }),
    namespaces: () => namespaceWords(new CliContext({ ...options, io: QUIET })),
    ...(terminal ? { interrupts } : {}),
  }, globalWords(options));
  return exited(code);
}

/**
 * Every namespace's identifier and its server's name, the disabled and
 * unselected ones too (`types` says why one cannot be shown), read from the
 * schema cache's index without listing anything; none when the configuration
 * cannot be read (the commands report that).
 */
async function namespaceWords(ctx: CliContext): Promise<readonly string[]> {
  try {
    const view = await ctx.namespaces({ listMissing: false, optional: true, schemas: false });
    return [...view.namespaces, ...view.disabled].flatMap((ns) => [ns.namespace, ns.server]);
  } catch {
    return [];
  } finally {
    await ctx.close();
  }
}

/** Calls `onInterrupt` at each SIGINT (Ctrl-C) instead of ending the process, until stopped. */
function interrupts(onInterrupt: () => void): () => void {
  Deno.addSignalListener("SIGINT", onInterrupt);
  return () => Deno.removeSignalListener("SIGINT", onInterrupt);
}
