/**
 * What `mcpx --json run` and `mcpx --json exec` print: not the script's own
 * output, which is the script's to shape, but the one envelope around it
 * (runner/record_output.ts; spec 000, "The script contract").
 *
 * @module
 */

import * as z from "zod";
import { Level, LogRecord } from "./output_shapes.ts";

/** A line from mcpx itself about the run, collected among the records. */
const RunNote = z.strictObject({
  level: Level,
  event: z.literal("run.note"),
  msg: z.string(),
});

/** The envelope of one script run. */
export const RunOutput = z.strictObject({
  ok: z.boolean().describe("exitCode is 0"),
  exitCode: z.number().int().describe("the script's own; 128 + n when signal n ended it"),
  durationMs: z.number(),
  runtime: z.string().describe("deno, bun or node"),
  run: z.string().describe("the run's span id (run-…), for mcpx log --chain"),
  result: z.unknown().optional().describe(
    "what the entry returned (or the last expression, for exec), else stdout parsed as JSON or " +
      "as text; absent when undefined",
  ),
  results: z.array(z.unknown()).describe("each emit(value), in order"),
  logs: z.array(z.union([LogRecord, RunNote])).describe("the script's records at logging.level"),
  stdout: z.string().describe("the script's stdout"),
  stderr: z.string().describe("the script's own stderr (its records apart)"),
}).describe(
  "with --json, one envelope around the run; without it, the script's own output is printed as is",
);
