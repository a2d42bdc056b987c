/**
 * `mcpx adapter`: command-line programs declared as servers (spec 000,
 * "Command-line programs as servers"; decision 0052). `adapter serve <name>`
 * is what the daemon runs for each adapter `paths.adapters` declares (an MCP
 * server over stdio); `adapter check` says whether each one's program is
 * installed and its declaration valid.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";

/** One adapter's row of `mcpx --json adapter check`. */
const AdapterRow = z.strictObject({
  name: z.string(),
  file: z.string().describe("the declaration file"),
  command: z.string().describe("the program, as declared (a relative path resolved)"),
  path: z.string().optional().describe("where the program was found, when it was"),
  installed: z.boolean(),
  tools: z.number().int().describe("tools declared"),
  problem: z.string().optional().describe("what is wrong with the declaration or the program"),
});

/** `mcpx --json adapter check`. */
export const AdapterOutput = z.strictObject({ adapters: z.array(AdapterRow) });

/** `mcpx adapter`. */
export const adapter = defineOp({
  name: "adapter",
  description: "Command-line programs declared as servers (paths.adapters): `adapter check` says " +
    "whether each program is installed and its declaration valid; `adapter serve <name>` serves " +
    "one over stdio (what the daemon runs for it).",
  where: "cli",
  hints: { readOnly: true, destructive: false, idempotent: true },
  serve: {
    core: false,
    refuse: (input: { words?: string[] }) =>
      input.words?.[0] === "serve"
        ? "`adapter serve` is the server the daemon starts, speaking MCP on stdio until its " +
          "client leaves; a tool call cannot run it (check is available)"
        : undefined,
  },
  input: z.object({
    words: z.array(z.string()).default([]).describe("check [name…] | serve <name>"),
    from: z.string().optional().describe(
      "a declaration file to read instead of the places paths.adapters names",
    ),
  }),
  output: AdapterOutput,
  cli: {
    command: "adapter",
    module: "./adapters/adapter.ts",
    usage: "mcpx adapter check [name…] [--from FILE] | serve <name> [--from FILE]",
    summary: "command-line programs as servers: check they are installed; serve one over stdio",
    args: [{ field: "words", name: "check|serve", variadic: true, complete: ["check", "serve"] }],
    flags: {
      from: {
        field: "from",
        type: "string",
        complete: "file",
      },
    },
  },
});
