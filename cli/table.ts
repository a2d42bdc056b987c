/**
 * Plain-text tables for people. Machine output is `--json`; nothing parses
 * these (CONVENTIONS.md, rule 8).
 *
 * @module
 */

import { terminalText } from "../core/terminal_text.ts";

export { truncate } from "../core/truncate.ts";

/**
 * Renders rows under a header, columns padded to the widest cell and
 * separated by two spaces; the last column is not padded.
 *
 * @param header Column titles, e.g. `["NAMESPACE", "TOOLS"]`.
 * @param rows Cells as strings; every row as long as the header.
 * @returns The table, one line per row, ending in a newline.
 */
export function renderTable(header: string[], rows: string[][]): string {
  // Control characters are shown as core/io.ts would show them, before the widths are measured.
  rows = rows.map((row) => row.map((cell) => terminalText(cell ?? "")));
  // A loop, not Math.max(...cells): spreading 100,000 rows would overflow the call stack.
  const widths = header.map((h) => h.length);
  for (const row of rows) {
    row.forEach((cell, i) => {
      if (i < widths.length) widths[i] = Math.max(widths[i], (cell ?? "").length);
    });
  }
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}

/** Human form of a duration in ms: `850ms`, `12s`, `4m`, `3h12m`. */
export function humanMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return `${h}h${m % 60 ? `${m % 60}m` : ""}`;
}
