/**
 * The one table type of the browser (spec 000, "The browser": five of the six
 * views are grids rendered through one table type, so a new view is a query,
 * not a widget). A {@link Grid} is columns and rows of plain values; this
 * module lays it out in a width, renders a row as one line, filters rows and
 * opens one row in full. Selection, scrolling and drill-down are the model's
 * (cli/tui/model.ts), the same for every grid.
 *
 * @module
 */

import { terminalText } from "../../core/terminal_text.ts";

/** One row: field name → value (a string, a number, a list, an object). */
export type Row = Record<string, unknown>;

/** One column of a grid. */
export interface Column {
  /** The row field it shows. */
  key: string;
  /** Its heading (default: the key in capitals). */
  title?: string;
  /** Numbers are right-aligned. */
  align?: "right";
  /** Most columns it takes (default 40); the last column takes what is left. */
  max?: number;
}

/** A table: what a view's query answers. */
export interface Grid {
  columns: Column[];
  rows: Row[];
  /** Said under the table when it has no rows (`no records yet`), or beside it. */
  note?: string;
}

/**
 * A grid of `rows` with `columns`, or with a column for every field the rows
 * have, in the order first seen.
 *
 * @example
 * ```ts
 * import { gridOf } from "./grid.ts";
 * const grid = gridOf([{ a: 1 }, { a: 2, b: "x" }]);
 * if (grid.columns.map((c) => c.key).join() !== "a,b") throw new Error();
 * ```
 */
export function gridOf(rows: Row[], columns?: Column[], note?: string): Grid {
  if (!columns) {
    const keys: string[] = [];
    for (const row of rows) {
      for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
    }
    columns = keys.map((key) => ({
      key,
      ...(rows.some((r) => typeof r[key] === "number") ? { align: "right" as const } : {}),
    }));
  }
  return { columns, rows, ...(note ? { note } : {}) };
}

/**
 * A value as one line of a cell: text with its line breaks shown as `⏎`,
 * lists joined by commas, objects as JSON, nothing for absent; control
 * characters shown as `\uXXXX` (core/terminal_text.ts), so a server's text
 * cannot drive the terminal.
 */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return terminalText(value.replaceAll(/\r?\n/g, " ⏎ "));
  if (Array.isArray(value) && value.every((v) => typeof v !== "object" || v === null)) {
    return terminalText(value.join(","));
  }
  if (typeof value === "object") return terminalText(JSON.stringify(value));
  return String(value);
}

/** `text` cut to `width` columns, with `…` where it was cut; padded to `width` when `pad`. */
export function fit(text: string, width: number, pad = false): string {
  if (width <= 0) return "";
  const chars = [...text];
  const cut = chars.length > width ? chars.slice(0, width - 1).join("") + "…" : text;
  return pad ? cut.padEnd(width) : cut;
}

/**
 * The width of each column in `width` terminal columns: each as wide as its
 * widest cell or heading, at most its `max`; the last, unless it holds
 * numbers, takes what is left. Columns are separated by two spaces.
 *
 * @example
 * ```ts
 * import { columnWidths, gridOf } from "./grid.ts";
 * const grid = gridOf([{ name: "echo", msg: "said hi" }]);
 * if (columnWidths(grid, 40).join() !== "4,34") throw new Error();
 * ```
 */
export function columnWidths(grid: Grid, width: number): number[] {
  const widths = grid.columns.map((c) => {
    const heading = headingOf(c).length;
    const widest = grid.rows.reduce((w, r) => Math.max(w, [...cellText(r[c.key])].length), 0);
    return Math.min(Math.max(heading, widest), c.max ?? 40);
  });
  if (widths.length === 0) return widths;
  const used = widths.slice(0, -1).reduce((a, b) => a + b + 2, 0);
  const last = grid.columns[widths.length - 1];
  const rest = Math.max(0, width - used);
  widths[widths.length - 1] = last.align === "right" ? Math.min(widths.at(-1)!, rest) : rest;
  return widths;
}

/** The heading line of `grid` in `widths`. */
export function headingLine(grid: Grid, widths: number[]): string {
  return grid.columns.map((c, i) => align(headingOf(c), widths[i], c.align)).join("  ").trimEnd();
}

/** One row as one line in `widths`. */
export function rowLine(grid: Grid, row: Row, widths: number[]): string {
  return grid.columns.map((c, i) => align(cellText(row[c.key]), widths[i], c.align)).join("  ")
    .trimEnd();
}

/**
 * The rows whose cells hold `filter` (case-insensitive; every word must
 * appear in some cell); all rows for an empty filter.
 */
export function filterRows(grid: Grid, filter: string): Row[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return grid.rows;
  return grid.rows.filter((row) => {
    const text = grid.columns.map((c) => cellText(row[c.key])).join(" ").toLowerCase() + " " +
      Object.values(row).map(cellText).join(" ").toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/**
 * One row opened in full (spec 000, "Opening a row"): a line per field,
 * `name: value`; a multi-line string indented under its name rather than
 * escaped; a list or object as indented JSON. Nothing is cut: the detail
 * view scrolls.
 *
 * @example
 * ```ts
 * import { detailLines } from "./grid.ts";
 * const lines = detailLines({ msg: "a\nb", n: 1 });
 * if (lines.join("|") !== "msg:|  a|  b|n: 1") throw new Error(lines.join("|"));
 * ```
 */
export function detailLines(row: Row): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(row)) {
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value, null, 2) ?? "";
    if (text.includes("\n")) {
      lines.push(`${key}:`, ...text.split(/\r?\n/).map((l) => `  ${terminalText(l)}`));
    } else {
      lines.push(`${key}: ${terminalText(text)}`);
    }
  }
  return lines;
}

/**
 * `line` broken into pieces of at most `width` characters, at a space where
 * there is one, each piece after the first indented as the line is, so a
 * wrapped signature or message still reads as one line continued.
 *
 * @example
 * ```ts
 * import { wrapLine } from "./grid.ts";
 * if (wrapLine("  ab cdef", 6).join("|") !== "  ab|  cdef") throw new Error();
 * if (wrapLine("abcdefgh", 4).join("|") !== "abcd|efgh") throw new Error();
 * ```
 */
export function wrapLine(line: string, width: number): string[] {
  let chars = [...line];
  if (width <= 0 || chars.length <= width) return [line];
  const indent = Math.min(/^ */.exec(line)![0].length, Math.floor(width / 2));
  const pieces: string[] = [];
  let room = width;
  while (chars.length > room) {
    // The last space that leaves something on this piece, else a cut mid-word.
    const space = chars.slice(0, room + 1).lastIndexOf(" ");
    const cut = space > indent ? space : room;
    pieces.push(chars.slice(0, cut).join("").trimEnd());
    chars = [..." ".repeat(indent), ...chars.slice(space > indent ? cut + 1 : cut)];
    room = width;
  }
  pieces.push(chars.join(""));
  return pieces;
}

function headingOf(column: Column): string {
  return column.title ?? column.key.toUpperCase();
}

function align(text: string, width: number, how?: "right"): string {
  const cut = fit(text, width);
  return how === "right" ? cut.padStart(width) : cut.padEnd(width);
}
