/**
 * `mcpx explore`: a prompt loop over the discovery commands, for a person
 * (spec 000, "The explorer"; decision 0082). It runs in the caller's own
 * process, never in the daemon, the front or as a tool of `mcpx serve`: it
 * reads its commands from its own stdin.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";

/** `mcpx explore`. */
export const explore = defineOp({
  name: "explore",
  description:
    "A prompt for a person: ls, search, types, call, log, chain and status at one prompt, a bare " +
    "namespace showing its signatures, every answer followed by the mcpx command that gives it. " +
    "Off a terminal it reads one command per line and prints plain output.",
  where: "cli",
  // What it runs may change things (`call`); it changes nothing of its own.
  hints: { readOnly: false, destructive: false, idempotent: false },
  input: z.object({}),
  // Nothing: its output is the transcript of the commands it runs, until `quit` or end of input.
  output: z.never(),
  cli: {
    command: "explore",
    module: "./explore/explore.ts",
    usage: "mcpx explore",
    summary: "a prompt over ls, search, types, call and log; each answer names its mcpx command",
  },
});
