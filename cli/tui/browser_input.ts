/**
 * What each key and click does in the browser (spec 000, "The browser"):
 * `]` and `[` move between the views, `/` filters, `r` refreshes, `L` jumps
 * to the log, `d` cycles the stats dimension, Enter or a click opens a row,
 * `q` quits. While the filter is open every printable key is the filter's —
 * typing a namespace with a `q` in it does not quit — and only Control-C,
 * Escape, Enter, Backspace and the arrows keep their meaning.
 *
 * @module
 */

import { TUI_VIEWS } from "../../ops/tui_views.ts";
import type { Browser } from "./browser.ts";
import type { InputEvent, KeyEvent, MouseEvent } from "./keys.ts";
import { layoutOf, tabAt } from "./layout.ts";
import { activeList, isGrid, type ListName, listState } from "./model.ts";

/** Rows the wheel moves per notch. */
const WHEEL_ROWS = 3;

/** Applies one input event to `browser`. */
export function handleInput(browser: Browser, event: InputEvent): void {
  if (event.type === "resize") return browser.resize(event.columns, event.rows);
  if (event.type === "mouse") return mouse(browser, event);
  key(browser, event);
}

function key(browser: Browser, event: KeyEvent): void {
  const state = browser.state;
  if (event.ctrl && event.key === "c") return browser.quit();
  if (state.filtering) return filterKey(browser, event);
  const page = Math.max(1, browser.listHeight - 1);
  if (state.detail) {
    switch (event.key) {
      case "escape":
      case "enter":
      case "backspace":
        return browser.closeDetail();
      case "up":
      case "k":
        return browser.scrollDetail(-1);
      case "down":
      case "j":
        return browser.scrollDetail(1);
      case "pageup":
        return browser.scrollDetail(-page);
      case "pagedown":
      case " ":
        return browser.scrollDetail(page);
      case "home":
      case "g":
        return browser.scrollDetail(0, 0);
      case "end":
      case "G":
        return browser.scrollDetail(0, Number.MAX_SAFE_INTEGER);
    }
  }
  const view = TUI_VIEWS.indexOf(state.view);
  switch (event.key) {
    case "q":
      return browser.quit();
    case "]":
      return browser.show(TUI_VIEWS[(view + 1) % TUI_VIEWS.length]);
    case "[":
      return browser.show(TUI_VIEWS[(view + TUI_VIEWS.length - 1) % TUI_VIEWS.length]);
    case "L":
      return browser.show("log");
    case "r":
      return browser.refresh();
    case "d":
      if (state.view === "stats") browser.nextDimension();
      return;
    case "/":
      if (state.detail) browser.closeDetail();
      return browser.setFiltering(true);
    case "escape":
      if (listState(state, activeList(state)).filter) browser.setFilter("");
      return;
    case "enter":
      return browser.open();
    case "up":
    case "k":
      return browser.move(-1);
    case "down":
    case "j":
      return browser.move(1);
    case "pageup":
      return browser.move(-page);
    case "pagedown":
      return browser.move(page);
    case "home":
    case "g":
      return browser.move(0, 0);
    case "end":
    case "G":
      return browser.move(0, Number.MAX_SAFE_INTEGER);
    case "left":
    case "h":
    case "backtab":
      return browser.focus("namespaces");
    case "right":
    case "l":
      return browser.focus("tools");
    case "tab":
      return browser.focus(state.focus === "namespaces" ? "tools" : "namespaces");
  }
}

/** A key while the filter is open: the filter's, but for leaving it and moving. */
function filterKey(browser: Browser, event: KeyEvent): void {
  const list = listState(browser.state, activeList(browser.state));
  switch (event.key) {
    case "escape":
      browser.setFilter("");
      return browser.setFiltering(false);
    case "enter":
      return browser.setFiltering(false);
    case "backspace":
      return browser.setFilter([...list.filter].slice(0, -1).join(""));
    case "up":
      return browser.move(-1);
    case "down":
      return browser.move(1);
  }
  if (!event.ctrl && [...event.key].length === 1) browser.setFilter(list.filter + event.key);
}

/**
 * A click selects the row under it — in a grid it also opens it; on the
 * tool already selected it opens that — a click on a view's name in the
 * header shows that view, and the wheel moves the list under the pointer.
 */
function mouse(browser: Browser, event: MouseEvent): void {
  const state = browser.state;
  const layout = layoutOf(state.columns, state.rows);
  if (event.action === "wheelup" || event.action === "wheeldown") {
    const delta = event.action === "wheelup" ? -WHEEL_ROWS : WHEEL_ROWS;
    if (state.detail) return browser.scrollDetail(delta);
    const list = listAt(browser, event.x);
    if (list) browser.move(delta, undefined, list);
    return;
  }
  if (event.action !== "press" || event.button !== 0) return;
  if (event.y === 0) {
    const view = tabAt(state.view, event.x);
    if (view) browser.show(view);
    return;
  }
  if (state.detail || state.filtering) return;
  const row = event.y - layout.listTop;
  if (row < 0 || row >= layout.listHeight) return;
  const list = listAt(browser, event.x);
  if (!list) return;
  const index = listState(state, list).offset + row;
  if (list === "namespaces" || list === "tools") {
    const again = state.focus === list && listState(state, list).cursor === index;
    browser.focus(list);
    browser.move(0, index, list);
    if (list === "tools" && again && listState(state, list).cursor === index) browser.open();
    return;
  }
  browser.move(0, index, list);
  if (listState(state, list).cursor === index) browser.open();
}

/** The list drawn at column `x`: a pane of the tools view, or the grid. */
function listAt(browser: Browser, x: number): ListName | undefined {
  const state = browser.state;
  if (isGrid(state.view)) return state.view;
  const [namespaces, tools] = layoutOf(state.columns, state.rows).panes;
  if (x < namespaces.x + namespaces.width) return "namespaces";
  if (x < tools.x + tools.width) return "tools";
  return undefined;
}
