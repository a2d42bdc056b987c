/**
 * The flags of the commands that take a direct target (`ls`, `types`,
 * `call`): a server named on the command line rather than in a configuration
 * file (cli/direct_target.ts, decision 0033). Each fills an input field of
 * the same name (`stdio`, `header`), which every op that takes these flags
 * declares; the CLI reads them before the op runs, to rewrite the command
 * line to the target's namespace.
 *
 * @module
 */

import type { CliFlag } from "./op.ts";

/** `--stdio "cmd args…"` and `--header "Name: value"`. */
export const DIRECT_FLAGS: Readonly<Record<string, CliFlag>> = {
  stdio: {
    field: "stdio",
    type: "string",
    help: 'reach the stdio server this command line starts, with no configuration ("cmd args…")',
  },
  header: {
    field: "header",
    type: "string",
    multiple: true,
    help: 'with a URL target: send this header ("Name: value"; repeatable)',
  },
};
