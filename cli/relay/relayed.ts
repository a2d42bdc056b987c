/**
 * Which command lines the thin client relays to the front (decisions 0067,
 * 0068): the warm commands an agent runs many times per task, off a
 * terminal, reading nothing from stdin, and `run`/`exec`, whose runtime the
 * thin client starts once the front has prepared it (decision 0069).
 * Everything else runs in the caller's own process: `serve`, `auth login`
 * (a browser), the daemon's own commands, anything on a terminal (progress
 * lines and questions asked inline need it) and an argument `-` (stdin is the
 * caller's). The launcher (cli/mcpx) holds the same words; a test keeps the
 * two equal.
 *
 * @module
 */

/** The command words relayed. */
export const RELAYED_COMMANDS: readonly string[] = [
  "ls",
  "search",
  "types",
  "call",
  "catalog",
  "run",
  "exec",
];

/**
 * The relayed commands that start a script's runtime: the front prepares the
 * run, and the thin client starts the runtime as its own child, with the
 * caller's streams (decision 0069).
 */
export const SPAWNING_COMMANDS: readonly string[] = ["run", "exec"];

/**
 * Whether `argv`'s first word that is not a flag is one of
 * {@link SPAWNING_COMMANDS}: the thin client will likely start a runtime.
 */
export function startsRuntime(argv: string[]): boolean {
  const command = argv.find((word) => !word.startsWith("-"));
  return command !== undefined && SPAWNING_COMMANDS.includes(command);
}

/**
 * Whether `argv` may run in the front, judged by its first word that is not a
 * flag (the front checks again with the real parser, and refuses what it may
 * not run): one of {@link RELAYED_COMMANDS}, no argument `-`, no path only
 * the caller can open ({@link callerOnly}), and no stream a terminal.
 *
 * @param argv Arguments after `mcpx`.
 * @param terminal Whether stdin, stdout or stderr is a terminal.
 * @param env The caller's environment (`MCPX_CONFIG`).
 */
export function relayable(
  argv: string[],
  terminal: boolean,
  env: Record<string, string | undefined> = {},
): boolean {
  if (terminal || needsCaller(argv, env)) return false;
  const command = argv.find((word) => !word.startsWith("-"));
  return command !== undefined && RELAYED_COMMANDS.includes(command);
}

/**
 * Why `argv` must run in the caller's own process whatever its command, or
 * undefined: an argument `-` (stdin is the caller's), or a path only the
 * caller can open ({@link callerOnly}). The thin client and the front both ask.
 */
export function needsCaller(
  argv: string[],
  env: Record<string, string | undefined>,
): string | undefined {
  if (argv.includes("-")) return "it reads stdin";
  if (callerOnly(argv, env)) return "it names a file only the caller's process can open";
  return undefined;
}

/**
 * A path that names something of the calling process itself, which another
 * process opening the same path would not find: its file descriptors
 * (`/dev/fd/3`, `/dev/stdin`, a shell's `<(…)`), or anything under
 * `/proc/self`.
 */
const CALLER_PATH = /(^|[@=])\/(dev\/(fd\/|std(in|out|err)\b)|proc\/(self|thread-self)\b)/;

/**
 * Whether `argv` (an `@file`, `--config /dev/fd/3`) or `MCPX_CONFIG` names a
 * path only the calling process can open ({@link CALLER_PATH}): such a
 * command line runs in the caller's process.
 *
 * @example
 * ```ts
 * import { callerOnly } from "./relayed.ts";
 * if (!callerOnly(["call", "a.b", "@/dev/fd/9"], {})) throw new Error();
 * if (!callerOnly(["ls"], { MCPX_CONFIG: "/proc/self/cwd/.mcp.json" })) throw new Error();
 * if (callerOnly(["call", "a.b", "@args.json"], {})) throw new Error();
 * ```
 */
export function callerOnly(argv: string[], env: Record<string, string | undefined>): boolean {
  return argv.some((word) => CALLER_PATH.test(word)) || CALLER_PATH.test(env.MCPX_CONFIG ?? "");
}
