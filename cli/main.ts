/**
 * The `mcpx` command from the sources, with every command
 * (cli/commands.ts). The installed `mcpx` runs cli/mcpx.bundle.js instead,
 * which holds the warm commands and hands any other command line to this
 * module (cli/warm.ts; decision 0027).
 *
 * @module
 */

import { loadCommand } from "./commands.ts";
import { runCommandLine } from "./command_line.ts";
import { type Io, processIo } from "../core/io.ts";
import type { ContextOptions } from "./context_settings.ts";

export { errorDocument, help } from "./command_line.ts";

/**
 * Runs one command line: the command's output on `io`, errors as one
 * `error:` line (a usage error also prints the usage line).
 *
 * @param argv Arguments after `mcpx`.
 * @param io Where output goes (default: the process's stdout and stderr).
 * @param env The environment (default: the process's).
 * @param cwd The working directory (default: the process's).
 * @param caller What a relayed command line says of its caller (cli/relay/front.ts): its
 *   `callerPid`, the `signal` that aborts the command when the caller goes away, and
 *   `shared` (the process runs other commands too).
 * @throws {RunInCallerError} Only when `shared`: the command needs a process of its own.
 * @returns The exit code (0 ok, 1 failure, 2 usage; core/errors.ts `EXIT`).
 */
export function main(
  argv: string[],
  io: Io = processIo,
  env: Record<string, string> = Deno.env.toObject(),
  cwd: string = Deno.cwd(),
  caller: Pick<ContextOptions, "callerPid" | "signal" | "shared" | "spawner"> = {},
): Promise<number> {
  return runCommandLine(argv, loadCommand, io, env, cwd, caller);
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
