/**
 * The browser's state and the pure rules over it: which rows a filter
 * leaves, which list the cursor is in, and how a cursor moves and keeps
 * itself on screen. cli/tui/browser.ts changes the state in answer to input
 * and replies; cli/tui/screen.ts draws it.
 *
 * @module
 */

import type { StatsView } from "../../logs/stats.ts";
import { TUI_VIEWS, type TuiView } from "../../ops/tui_views.ts";
import { filterRows, type Grid, type Row, wrapLine } from "./grid.ts";
import type { GridView, LiveMode, NamespaceItem, ToolItem } from "./tui_data.ts";

/** A list's cursor, scroll and filter. */
export interface ListState {
  /** Index of the selected row among the rows the filter leaves. */
  cursor: number;
  /** Index of the first row shown. */
  offset: number;
  /** The filter's text (`/`); empty: every row. */
  filter: string;
}

/** What a list shows while and after its data loads. */
export interface Loaded<T> extends ListState {
  items: T[];
  loading: boolean;
  /** Why the last load failed, in mcpx's words. */
  error?: string;
}

/** One grid view: its table once loaded. */
export interface GridState extends ListState {
  grid?: Grid;
  loading: boolean;
  error?: string;
}

/** A row opened in full (Enter or a click). */
export interface Detail {
  title: string;
  lines: string[];
  /** The first line shown. */
  offset: number;
}

/** The opened row's lines as drawn `columns` wide: long ones wrapped, never cut. */
export function detailRows(detail: Detail, columns: number): string[] {
  return detail.lines.flatMap((line) => wrapLine(line, columns - 2));
}

/** Everything the screen shows. */
export interface BrowserState {
  view: TuiView;
  columns: number;
  rows: number;
  /** Which pane of the tools view has the cursor. */
  focus: "namespaces" | "tools";
  namespaces: Loaded<NamespaceItem>;
  /** The tools of `namespace`, the namespace under the cursor. */
  tools: Loaded<ToolItem> & { namespace?: string };
  grids: Record<GridView, GridState>;
  /** The stats grid's dimension (`d` cycles it). */
  dimension: StatsView;
  /** The filter of the list with the cursor is open: keys go to it. */
  filtering: boolean;
  detail?: Detail;
  /** How the live views hear of changes. */
  live: LiveMode;
  /** Replies dropped because what they answered was no longer shown. */
  dropped: number;
  quit: boolean;
}

/** The grid views, in header order. */
export const GRID_VIEWS: readonly GridView[] = TUI_VIEWS.filter((v): v is GridView =>
  v !== "tools"
);

/** A list with nothing loaded yet. */
export function emptyList<T>(): Loaded<T> {
  return { items: [], loading: false, cursor: 0, offset: 0, filter: "" };
}

/** The state a browser opens with. */
export function initialState(view: TuiView, columns: number, rows: number): BrowserState {
  const grids = Object.fromEntries(
    GRID_VIEWS.map((v) => [v, { loading: false, cursor: 0, offset: 0, filter: "" }]),
  ) as Record<GridView, GridState>;
  return {
    view,
    columns,
    rows,
    focus: "namespaces",
    namespaces: emptyList(),
    tools: emptyList(),
    grids,
    dimension: "calls",
    filtering: false,
    live: "off",
    dropped: 0,
    quit: false,
  };
}

/** Whether `view` is a grid. */
export function isGrid(view: TuiView): view is GridView {
  return view !== "tools";
}

/** Case-insensitive: every word of `filter` is in one of `texts`. */
function matches(filter: string, ...texts: (string | undefined)[]): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const text = texts.join(" ").toLowerCase();
  return words.every((w) => text.includes(w));
}

/** The namespaces the filter leaves. */
export function visibleNamespaces(state: BrowserState): NamespaceItem[] {
  const { items, filter } = state.namespaces;
  return items.filter((n) => matches(filter, n.namespace, n.description, n.state));
}

/** The tools the filter leaves. */
export function visibleTools(state: BrowserState): ToolItem[] {
  const { items, filter } = state.tools;
  return items.filter((t) => matches(filter, t.name, t.tool, t.description));
}

/** The rows of a grid view the filter leaves. */
export function visibleRows(state: BrowserState, view: GridView): Row[] {
  const { grid, filter } = state.grids[view];
  return grid ? filterRows(grid, filter) : [];
}

/** The namespace under the cursor, if any. */
export function selectedNamespace(state: BrowserState): NamespaceItem | undefined {
  return visibleNamespaces(state)[state.namespaces.cursor];
}

/** The tool under the cursor, if any. */
export function selectedTool(state: BrowserState): ToolItem | undefined {
  return visibleTools(state)[state.tools.cursor];
}

/** Which list the cursor and the filter act on now. */
export type ListName = "namespaces" | "tools" | GridView;

/** The list with the cursor: the focused pane of the tools view, or the grid. */
export function activeList(state: BrowserState): ListName {
  return isGrid(state.view) ? state.view : state.focus;
}

/** A list's cursor state. */
export function listState(state: BrowserState, name: ListName): ListState {
  if (name === "namespaces") return state.namespaces;
  if (name === "tools") return state.tools;
  return state.grids[name];
}

/** How many rows a list shows after its filter. */
export function listLength(state: BrowserState, name: ListName): number {
  if (name === "namespaces") return visibleNamespaces(state).length;
  if (name === "tools") return visibleTools(state).length;
  return visibleRows(state, name).length;
}

/**
 * Puts a list's cursor at `cursor` (clamped to its `length` rows) and
 * scrolls so it shows in `height` rows.
 *
 * @example
 * ```ts
 * import { placeCursor } from "./model.ts";
 * const list = { cursor: 0, offset: 0, filter: "" };
 * placeCursor(list, 12, 20, 5);
 * if (list.cursor !== 12 || list.offset !== 8) throw new Error();
 * ```
 */
export function placeCursor(list: ListState, cursor: number, length: number, height: number): void {
  list.cursor = Math.max(0, Math.min(cursor, length - 1));
  const rows = Math.max(1, height);
  if (list.cursor < list.offset) list.offset = list.cursor;
  if (list.cursor >= list.offset + rows) list.offset = list.cursor - rows + 1;
  list.offset = Math.max(0, Math.min(list.offset, Math.max(0, length - rows)));
}
