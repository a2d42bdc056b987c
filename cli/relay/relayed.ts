/**
 * Which command lines the thin client relays to the front (decisions 0067,
 * 0068): the warm commands an agent runs many times per task, off a
 * terminal, reading nothing from stdin. Everything else runs in the caller's
 * own process: `run`/`exec` (a local script runtime), `serve`, `auth login`
 * (a browser), the daemon's own commands, anything on a terminal (progress
 * lines and questions asked inline need it) and an argument `-` (stdin is the
 * caller's). The launcher (cli/mcpx) holds the same words; a test keeps the
 * two equal.
 *
 * @module
 */

/** The command words relayed. */
export const RELAYED_COMMANDS: readonly string[] = ["ls", "search", "types", "call", "catalog"];

/**
 * Whether `argv` may run in the front, judged by its first word that is not a
 * flag (the front checks again with the real parser, and refuses what it may
 * not run): one of {@link RELAYED_COMMANDS}, no argument `-`, and no stream a
 * terminal.
 *
 * @param argv Arguments after `mcpx`.
 * @param terminal Whether stdin, stdout or stderr is a terminal.
 */
export function relayable(argv: string[], terminal: boolean): boolean {
  if (terminal || argv.includes("-")) return false;
  const command = argv.find((word) => !word.startsWith("-"));
  return command !== undefined && RELAYED_COMMANDS.includes(command);
}
