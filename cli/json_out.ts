/**
 * How a command prints its op's output under `--json`: the document as it
 * is, nothing added or taken away (decision 0021), so what a command prints
 * is what its op's output schema declares (tests/json_output_test.ts).
 *
 * @module
 */

import type { Io } from "../core/io.ts";

/**
 * Prints `document` as indented JSON (two spaces) and a newline: what most
 * commands print under `--json`.
 *
 * @param io Where stdout goes.
 * @param document The op's output.
 */
export function printJson(io: Pick<Io, "out">, document: unknown): void {
  io.out(JSON.stringify(document, null, 2) + "\n");
}

/**
 * Prints `document` as one line of JSON and a newline: what the commands that
 * answer a small acknowledgement print under `--json` (`restart`, `stop`,
 * `session new|end`, `client`), as they always have.
 *
 * @param io Where stdout goes.
 * @param document The op's output.
 */
export function printJsonLine(io: Pick<Io, "out">, document: unknown): void {
  io.out(JSON.stringify(document) + "\n");
}
