/**
 * "Did you mean" suggestions for unknown namespace and tool names: one rule
 * for the CLI (discovery/view.ts) and every generated script client
 * (client/namespace_object.ts, tool_index.ts), which inlines this
 * module (client/client_file.ts `RUNTIME_INPUTS`), so it imports
 * nothing and runs unchanged under deno, bun and node.
 *
 * @module
 */

/**
 * Optimal-string-alignment distance (restricted Damerau–Levenshtein): the
 * fewest insertions, deletions, substitutions and transpositions of two
 * adjacent characters that turn `a` into `b`, no substring edited twice.
 *
 * @param a First string (compared as written; callers fold case).
 * @param b Second string.
 * @returns The distance in edits (0 when equal).
 * @example
 * ```ts
 * import { editDistance } from "./nearest.ts";
 * if (editDistance("ehco", "echo") !== 1) throw new Error();
 * ```
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  for (let i = 0; i < rows; i++) d[i][0] = i;
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

/**
 * The candidates nearest to `name`, for "did you mean" in every "unknown
 * namespace/tool" error.
 *
 * Comparison ignores case. A candidate that contains `name` (three characters
 * or more) as a substring comes first, shorter ones before longer; then
 * candidates within `max(2, ⌊len/3⌋)` edits by {@link editDistance}, nearest
 * first. Ties keep the order of `candidates`. Anything farther is left out.
 *
 * @param name The name that was not found.
 * @param candidates Names that do exist.
 * @param max Most suggestions returned (default 3).
 * @returns Up to `max` candidates, best first; empty when none is close.
 * @example
 * ```ts
 * import { nearest } from "./nearest.ts";
 * if (nearest("ehco", ["echo", "add"])[0] !== "echo") throw new Error();
 * ```
 */
export function nearest(name: string, candidates: string[], max = 3): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const ranked: { candidate: string; rank: number; order: number }[] = [];
  const seen = new Set<string>();
  candidates.forEach((candidate, order) => {
    if (seen.has(candidate)) return;
    seen.add(candidate);
    const c = candidate.toLowerCase();
    if (wanted.length >= 3 && c.includes(wanted)) {
      ranked.push({ candidate, rank: -1000 + (c.length - wanted.length) / 1000, order });
      return;
    }
    const distance = editDistance(wanted, c);
    if (distance <= limit) ranked.push({ candidate, rank: distance, order });
  });
  ranked.sort((x, y) => x.rank - y.rank || x.order - y.order);
  return ranked.slice(0, Math.max(0, max)).map((r) => r.candidate);
}

/**
 * The clause that ends an "unknown name" message: `; did you mean a, b or c?`,
 * or `.` when there is nothing to suggest.
 *
 * @param suggestions The names to offer ({@link nearest}), best first.
 * @returns The clause, starting with `;` or `.`.
 * @example
 * ```ts
 * import { didYouMean } from "./nearest.ts";
 * if (didYouMean(["a.b", "a.c"]) !== "; did you mean a.b or a.c?") throw new Error();
 * if (didYouMean([]) !== ".") throw new Error();
 * ```
 */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return ".";
  const list = suggestions.length === 1
    ? suggestions[0]
    : `${suggestions.slice(0, -1).join(", ")} or ${suggestions.at(-1)}`;
  return `; did you mean ${list}?`;
}
