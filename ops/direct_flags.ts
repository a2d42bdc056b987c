/**
 * The flags of the commands that take a direct target (`ls`, `types`,
 * `call`): a server named on the command line rather than in a configuration
 * file (cli/direct_target.ts, decision 0033). Neither is an input field: the
 * command line is rewritten to the target's namespace before the op's input
 * is built.
 *
 * @module
 */

import type { CliFlag } from "./op.ts";

/** `--stdio "cmd args…"` and `--header "Name: value"`. */
export const DIRECT_FLAGS: Readonly<Record<string, CliFlag>> = {
  stdio: {
    type: "string",
    help: 'reach the stdio server this command line starts, with no configuration ("cmd args…")',
  },
  header: {
    type: "string",
    multiple: true,
    help: 'with a URL target: send this header ("Name: value"; repeatable)',
  },
};
