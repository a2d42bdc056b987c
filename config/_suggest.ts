/**
 * Near-miss suggestions for misspelt keys and values ("did you mean
 * `excludeTools`?"). Private to config/.
 *
 * @module
 */

import { editDistance } from "../core/nearest.ts";

/**
 * The candidate closest to `input` by edit distance (case-insensitive), when it is close
 * enough to be a plausible typo: distance ≤ max(1, ⌊length / 3⌋).
 *
 * @param input What the user wrote.
 * @param candidates The accepted spellings.
 * @returns The best candidate, or undefined when none is plausible.
 */
export function nearest(input: string, candidates: Iterable<string>): string | undefined {
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    const d = editDistance(lower, c);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const limit = Math.max(1, Math.floor(input.length / 3));
  return bestDistance <= limit ? best : undefined;
}

/**
 * A clause to append to a message: `; did you mean "x"?` or the empty string.
 *
 * @param input What the user wrote.
 * @param candidates The accepted spellings.
 * @returns The clause, starting with `; `, or "".
 */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const best = nearest(input, candidates);
  return best === undefined ? "" : `; did you mean \`${best}\`?`;
}
