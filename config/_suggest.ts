/**
 * Near-miss suggestions for misspelt keys and values ("did you mean
 * `excludeTools`?"). Private to config/.
 *
 * @module
 */

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
    const d = distance(lower, c);
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

/** Levenshtein distance with adjacent transposition counted as one edit. */
function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}
