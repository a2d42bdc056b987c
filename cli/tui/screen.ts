/**
 * The browser drawn with ink (React for the terminal; decision 0083): a
 * header naming the six views, the body (three panes, a grid, or a row
 * opened in full) and a footer with the keys or the open filter. The only
 * module that imports ink and React, loaded only by `mcpx tui`
 * (cli/tui/tui.ts imports it by a computed specifier), so no other command
 * pays for them. It draws the state of a {@link Browser} and nothing else:
 * geometry comes from cli/tui/layout.ts, which clicks are measured against.
 *
 * @module
 */

// @ts-types="@types/react"
import React from "react";
import { Box, type Instance, render, Text } from "ink";
import type { Writable } from "node:stream";
import type { Browser } from "./browser.ts";
import { layoutOf, MIN_SIZE, type PaneBox } from "./layout.ts";
import { headerOf } from "./layout.ts";
import { columnWidths, fit, headingLine, rowLine, wrapLine } from "./grid.ts";
import type { NamespaceItem } from "./tui_data.ts";
import {
  type BrowserState,
  detailRows,
  isGrid,
  selectedTool,
  visibleNamespaces,
  visibleRows,
  visibleTools,
} from "./model.ts";
import { terminalText } from "../../core/terminal_text.ts";

const h = React.createElement;

/** A line of a list: its text, whether the cursor is on it, and its color. */
interface Line {
  text: string;
  selected?: boolean;
  color?: string;
  dim?: boolean;
}

/** Colors of a namespace's state. */
const STATE_COLORS: Record<string, string> = {
  live: "green",
  starting: "yellow",
  error: "red",
  untrusted: "magenta",
  disabled: "gray",
};

/**
 * Draws `browser` on `stdout` in the terminal's alternate screen until it
 * quits; the screen the user had is back when this resolves.
 *
 * @param stdout Where to draw (the process's stdout, a terminal).
 * @param stdin A stream ink may hold; the browser reads the terminal itself (cli/tui/terminal.ts).
 */
export async function drawBrowser(
  browser: Browser,
  stdout: Writable,
  stdin: NodeJS.ReadableStream,
): Promise<void> {
  const instance: Instance = render(h(App, { browser }), {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
    alternateScreen: true,
    // The terminal was checked by the command; a CI variable must not turn drawing off.
    interactive: true,
  });
  await new Promise<void>((resolve) => {
    const stop = browser.subscribe(() => {
      if (browser.state.quit) {
        stop();
        resolve();
      }
    });
    if (browser.state.quit) resolve();
  });
  instance.unmount();
  await instance.waitUntilExit().catch(() => {});
}

function App({ browser }: { browser: Browser }): React.ReactElement {
  React.useSyncExternalStore(
    (listener) => browser.subscribe(listener),
    () => browser.version,
  );
  const state = browser.state;
  const layout = layoutOf(state.columns, state.rows);
  if (layout.tooSmall) {
    return h(
      Text,
      { wrap: "wrap" },
      `mcpx tui needs a terminal of at least ${MIN_SIZE.columns}×${MIN_SIZE.rows}; this one is ` +
        `${state.columns}×${state.rows}. Make it larger, or press q to quit.`,
    );
  }
  let body: React.ReactElement;
  if (state.detail) {
    const { title, offset } = state.detail;
    const shown = detailRows(state.detail, state.columns)
      .slice(offset, offset + layout.listHeight).map((text) => ({ text }));
    body = pane(title, shown, { x: 0, width: state.columns }, layout.bodyHeight, true);
  } else if (isGrid(state.view)) {
    body = gridPane(state, layout.bodyHeight, layout.listHeight);
  } else {
    body = toolsPanes(state, layout.panes, layout.bodyHeight, layout.listHeight);
  }
  return h(
    Box,
    { flexDirection: "column", width: state.columns, height: state.rows },
    header(state),
    h(Box, { height: layout.bodyHeight, flexDirection: "row" }, body),
    footer(state),
  );
}

function header(state: BrowserState): React.ReactElement {
  const { tabs } = headerOf(state.view);
  const live = state.live === "events" ? "live" : state.live === "polling" ? "polling" : "";
  return h(
    Box,
    { height: 1, flexDirection: "row" },
    h(Text, { bold: true }, " mcpx │"),
    ...tabs.map((tab) =>
      h(
        Text,
        {
          key: tab.view,
          ...(tab.view === state.view ? { inverse: true, bold: true } : { dimColor: false }),
        },
        tab.view === state.view ? `[${tab.view}]` : ` ${tab.view} `,
      )
    ),
    h(Box, { flexGrow: 1 }),
    h(Text, { dimColor: true }, live ? `${live} ` : ""),
  );
}

function footer(state: BrowserState): React.ReactElement {
  const list = isGrid(state.view)
    ? state.grids[state.view]
    : state.focus === "namespaces"
    ? state.namespaces
    : state.tools;
  let text: string;
  if (state.filtering) {
    text = ` /${list.filter}█   Enter keeps the filter · Esc clears it`;
  } else if (state.detail) {
    text = " ↑↓ scroll · Esc close · ] [ views · q quit";
  } else {
    const parts = [
      "↑↓ move",
      ...(state.view === "tools" ? ["←→ pane"] : []),
      "⏎ open",
      "/ filter",
      "] [ views",
      "r refresh",
      "L log",
      ...(state.view === "stats" ? [`d ${state.dimension}`] : []),
      "q quit",
    ];
    text = ` ${parts.join(" · ")}${list.filter ? `   filter: ${list.filter}` : ""}`;
  }
  return h(Text, { wrap: "truncate", dimColor: !state.filtering }, text);
}

function toolsPanes(
  state: BrowserState,
  panes: [PaneBox, PaneBox, PaneBox],
  height: number,
  rows: number,
): React.ReactElement {
  const [left, middle, right] = panes;
  const namespaces = state.namespaces;
  const nsWidth = left.width - 2;
  // The tool count, or, for a namespace that has none to show, its state in a word.
  const countOrState = (n: NamespaceItem) =>
    STATE_COLORS[n.state] && n.state !== "live" ? n.state : n.tools;
  const nsLines: Line[] = visibleNamespaces(state).map((n, i) => ({
    text: `${fit(n.namespace, nsWidth - 10, true)} ${String(countOrState(n)).padStart(9)}`,
    selected: i === namespaces.cursor,
    color: STATE_COLORS[n.state],
  }));
  const tools = state.tools;
  const toolLines: Line[] = visibleTools(state).map((t, i) => ({
    text: fit(t.name, middle.width - 2),
    selected: i === tools.cursor,
  }));
  const tool = selectedTool(state);
  const wrap = (text: string) => wrapLine(terminalText(text), right.width - 2);
  const signature: Line[] = tool
    ? [
      ...tool.description.split(/\r?\n/).flatMap(wrap).map((text) => ({ text, dim: true })),
      { text: "" },
      ...tool.signature.split(/\r?\n/).flatMap(wrap).map((text) => ({ text })),
    ]
    : [];
  const status = (loading: boolean, error: string | undefined, empty: string, width: number) =>
    error
      ? error.split(/\r?\n/).flatMap((l) => wrapLine(terminalText(l), width - 2))
        .map((text): Line => ({ text, color: "red" }))
      : loading
      ? [{ text: "loading…", dim: true }]
      : [{ text: empty, dim: true }];
  return h(
    React.Fragment,
    null,
    pane(
      `namespaces${namespaces.filter ? ` /${namespaces.filter}` : ""}`,
      nsLines.length
        ? nsLines.slice(namespaces.offset, namespaces.offset + rows)
        : status(namespaces.loading, namespaces.error, "no namespaces", left.width),
      left,
      height,
      state.focus === "namespaces",
    ),
    pane(
      `${tools.namespace ?? "tools"}${tools.filter ? ` /${tools.filter}` : ""}`,
      toolLines.length
        ? toolLines.slice(tools.offset, tools.offset + rows)
        : status(tools.loading, tools.error, tools.namespace ? "no tools" : "", middle.width),
      middle,
      height,
      state.focus === "tools",
    ),
    pane(
      tool ? `${tools.namespace}.${tool.name}` : "signature",
      signature.slice(0, rows),
      right,
      height,
      false,
    ),
  );
}

function gridPane(state: BrowserState, height: number, rows: number): React.ReactElement {
  const view = state.view as Exclude<BrowserState["view"], "tools">;
  const gridState = state.grids[view];
  const grid = gridState.grid;
  const width = state.columns - 2;
  if (!grid) {
    const text = gridState.error ?? (gridState.loading ? "loading…" : "");
    const line = { text, color: gridState.error ? "red" : undefined, dim: !gridState.error };
    return pane(view, [line], { x: 0, width: state.columns }, height, true);
  }
  const shown = { ...grid, rows: visibleRows(state, view) };
  const widths = columnWidths(shown, width);
  const lines: Line[] = shown.rows.slice(gridState.offset, gridState.offset + rows).map((
    row,
    i,
  ) => ({
    text: rowLine(shown, row, widths),
    selected: gridState.offset + i === gridState.cursor,
  }));
  if (gridState.error) lines.unshift({ text: gridState.error, color: "red" });
  if (lines.length === 0 && grid.note) lines.push({ text: grid.note, dim: true });
  else if (grid.note && lines.length < rows) {
    lines.push({ text: "" }, { text: grid.note, dim: true });
  }
  const title = headingLine(shown, widths);
  return pane(title, lines, { x: 0, width: state.columns }, height, true, false);
}

function pane(
  title: string,
  lines: Line[],
  box: PaneBox,
  height: number,
  focused: boolean,
  boldTitle = true,
): React.ReactElement {
  const inner = Math.max(0, box.width - 2);
  return h(
    Box,
    {
      key: `${box.x}`,
      width: box.width,
      height,
      flexDirection: "column",
      borderStyle: "single",
      borderColor: focused ? "cyan" : "gray",
      overflow: "hidden",
    },
    h(Text, { bold: boldTitle, underline: !boldTitle, wrap: "truncate" }, fit(title, inner)),
    ...lines.map((line, i) =>
      h(
        Text,
        {
          key: i,
          wrap: "truncate",
          inverse: line.selected === true,
          ...(line.color ? { color: line.color } : {}),
          dimColor: line.dim === true,
        },
        fit(line.text, inner, true),
      )
    ),
  );
}
