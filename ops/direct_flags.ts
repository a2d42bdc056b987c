/**
 * The flags of the commands that take a direct target (`ls`, `types`,
 * `call`, `prompts`, `resources`): a server named on the command line rather than in a configuration
 * file (cli/direct_target.ts, decision 0033). Each fills an input field of
 * the same name (`stdio`, `header`), which every op that takes these flags
 * declares; the CLI reads them before the op runs, to rewrite the command
 * line to the target's namespace.
 *
 * @module
 */

import * as z from "zod";
import type { CliFlag } from "./op.ts";
import { commandLineOnly } from "./field_meta.ts";

/** The input fields {@link DIRECT_FLAGS} fill, spread into each such op's input. */
export const DIRECT_FIELDS = {
  stdio: commandLineOnly(z.string()).optional().describe(
    'a stdio server\'s command line ("cmd args…"), started and reached with no configuration ' +
      "(a direct target)",
  ),
  header: commandLineOnly(z.array(z.string())).optional().describe(
    "headers to send to a URL target, each `Name: value`",
  ),
};

/** `--stdio "cmd args…"` and `--header "Name: value"`. */
export const DIRECT_FLAGS: Readonly<Record<string, CliFlag>> = {
  stdio: {
    field: "stdio",
    type: "string",
  },
  header: {
    field: "header",
    type: "string",
    multiple: true,
  },
};
