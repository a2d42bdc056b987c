/**
 * Where everything is on the browser's screen, in cells: one function for
 * both drawing (cli/tui/screen.ts) and hit-testing a click (cli/tui/browser.ts),
 * so a click lands on the row drawn under it. The screen is a header line
 * naming the views, a body of bordered boxes (three panes, or one grid), and
 * a footer line. Inside a box: its title line, then its rows.
 *
 * @module
 */

import { TUI_VIEWS, type TuiView } from "../../ops/tui_views.ts";

/** The smallest terminal the browser draws in (columns × rows); a smaller one is told so. */
export const MIN_SIZE = { columns: 60, rows: 12 } as const;

/** One box of the body: its leftmost column and width, borders included. */
export interface PaneBox {
  x: number;
  width: number;
}

/** The screen's geometry for one terminal size. */
export interface Layout {
  columns: number;
  rows: number;
  /** Smaller than {@link MIN_SIZE}: only a sentence saying so is drawn. */
  tooSmall: boolean;
  /** Rows of each box, borders included (the screen less header and footer). */
  bodyHeight: number;
  /** The screen row of a box's first list row (header, top border, title line above it). */
  listTop: number;
  /** List rows that fit in a box. */
  listHeight: number;
  /** The tools view's three boxes: namespaces, tools, signature. */
  panes: [PaneBox, PaneBox, PaneBox];
}

/**
 * The geometry of a `columns` × `rows` terminal.
 *
 * @example
 * ```ts
 * import { layoutOf } from "./layout.ts";
 * const l = layoutOf(140, 40);
 * if (l.listTop !== 3 || l.listHeight !== 35 || l.panes[2].x + l.panes[2].width !== 140) {
 *   throw new Error();
 * }
 * ```
 */
export function layoutOf(columns: number, rows: number): Layout {
  const tooSmall = columns < MIN_SIZE.columns || rows < MIN_SIZE.rows;
  const bodyHeight = Math.max(0, rows - 2);
  const first = Math.max(20, Math.floor(columns * 0.2));
  const second = Math.max(24, Math.floor(columns * 0.28));
  return {
    columns,
    rows,
    tooSmall,
    bodyHeight,
    listTop: 3,
    // The box's borders and its title line.
    listHeight: Math.max(0, bodyHeight - 3),
    panes: [
      { x: 0, width: first },
      { x: first, width: second },
      { x: first + second, width: Math.max(0, columns - first - second) },
    ],
  };
}

/** One view's name in the header and where it is. */
export interface HeaderTab {
  view: TuiView;
  x: number;
  width: number;
}

/**
 * The header line: `mcpx` and every view, the current one in brackets
 * (spec 000, "Six views": the header names them all, the current marked),
 * and each name's place, for a click.
 *
 * @example
 * ```ts
 * import { headerOf } from "./layout.ts";
 * const { text } = headerOf("log");
 * if (!text.includes(" tools [log] stats ")) throw new Error(text);
 * ```
 */
export function headerOf(current: TuiView): { text: string; tabs: HeaderTab[] } {
  let text = " mcpx │";
  const tabs: HeaderTab[] = [];
  for (const view of TUI_VIEWS) {
    const label = view === current ? `[${view}]` : ` ${view} `;
    tabs.push({ view, x: text.length, width: label.length });
    text += label;
  }
  return { text, tabs };
}

/** The view whose name is at column `x` of the header, if any. */
export function tabAt(current: TuiView, x: number): TuiView | undefined {
  return headerOf(current).tabs.find((t) => x >= t.x && x < t.x + t.width)?.view;
}
