/**
 * Summary statistics and formatting for the benchmark: medians, nearest-rank
 * p90, ratios, and the markdown table.
 *
 * @module
 */

/** Summary of one measured command, in milliseconds. */
export interface Summary {
  runs: number;
  median: number;
  p90: number;
  mean: number;
  min: number;
  max: number;
}

/** The middle value (mean of the two middle values for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Nearest-rank percentile: the smallest value with at least `p`% of values at or below it. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[Math.min(rank, s.length) - 1];
}

/** Summarises run times given in milliseconds. */
export function summarize(timesMs: number[]): Summary {
  return {
    runs: timesMs.length,
    median: median(timesMs),
    p90: percentile(timesMs, 90),
    mean: timesMs.reduce((a, b) => a + b, 0) / (timesMs.length || 1),
    min: Math.min(...timesMs),
    max: Math.max(...timesMs),
  };
}

/** `12.3` style milliseconds (no unit). */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return "—";
  return value >= 1000 ? value.toFixed(0) : value.toFixed(1);
}

/** `1.23×` style ratio. */
export function ratio(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) {
    return "—";
  }
  return `${(a / b).toFixed(2)}×`;
}

/** A GitHub-flavoured markdown table with padded columns. */
export function markdownTable(header: string[], rows: string[][]): string {
  const cells = [header, ...rows].map((r) => r.map((c) => c.replaceAll("|", "\\|")));
  const widths = header.map((_, i) => Math.max(3, ...cells.map((r) => [...(r[i] ?? "")].length)));
  const line = (r: string[]) =>
    `| ${r.map((c, i) => c + " ".repeat(widths[i] - [...c].length)).join(" | ")} |`;
  return [
    line(cells[0]),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...cells.slice(1).map(line),
  ].join("\n");
}
