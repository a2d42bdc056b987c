/**
 * How discovery says a server is still starting (decision 0010): the short
 * form a table cell holds (`starting 12s of 5m, npx is installing`) and the
 * sentence that names the command that waits for it. The same words on a
 * terminal and off it, so an agent reading a pipe learns what a person sees.
 *
 * @module
 */

import { formatDuration } from "../config/duration.ts";
import type { StartingListing } from "./types.ts";

/** A start in progress as the outputs carry it (ops/output_shapes.ts `Starting`). */
export type StartingShown = Omit<StartingListing, "server" | "namespace">;

/**
 * The short form: `starting 12s of 5m`, with `, npx is installing` while it is.
 *
 * @example
 * ```ts
 * import { startingCell } from "./starting_note.ts";
 * const cell = startingCell({ elapsedMs: 12_400, allowanceMs: 300_000, bound: "firstStartTimeout" });
 * if (cell !== "starting 12s of 5m") throw new Error(cell);
 * ```
 */
export function startingCell(s: StartingShown): string {
  return `starting ${Math.floor(s.elapsedMs / 1000)}s of ${formatDuration(s.allowanceMs)}` +
    (s.phase === "installing" ? ", npx is installing" : "");
}

/**
 * The servers still starting and how long so far, the clause every note about
 * them opens with: `everything is starting (12s so far; a first start may
 * take up to 5m while a package runner such as npx downloads it)`.
 *
 * @param rows The namespaces and their starts; at least one.
 */
export function startingSoFar(rows: readonly (StartingShown & { namespace: string })[]): string {
  const names = rows.map((r) => r.namespace);
  const longest = rows.reduce((a, b) => (b.elapsedMs > a.elapsedMs ? b : a));
  const first = rows.some((r) => r.bound === "firstStartTimeout");
  const allowance = formatDuration(Math.max(...rows.map((r) => r.allowanceMs)));
  const what = names.length === 1 ? `${names[0]} is` : `${names.join(", ")} are`;
  return `${what} starting (${Math.floor(longest.elapsedMs / 1000)}s so far; ` +
    (first
      ? `a first start may take up to ${allowance} while a package runner such as npx downloads ${
        pronoun(rows)
      }`
      : `a start may take up to ${allowance}`) +
    ")";
}

/** `it` for one server, `them` for several. */
export function pronoun(rows: readonly unknown[]): "it" | "them" {
  return rows.length === 1 ? "it" : "them";
}

/**
 * One sentence for the servers still starting, naming the command that waits:
 * `everything is starting (12s so far; a first start may take up to 5m while npx downloads it):
 * \`mcpx ls --wait\` waits for it.`
 *
 * @param rows The namespaces and their starts; at least one.
 * @param wait The command that waits (ops/wait_flag.ts `waitCommand`).
 */
export function startingSentence(
  rows: readonly (StartingShown & { namespace: string })[],
  wait: string,
): string {
  return `${startingSoFar(rows)}: \`${wait}\` waits for ${pronoun(rows)}.`;
}
