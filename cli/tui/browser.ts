/**
 * The browser's controller: it holds the state (cli/tui/model.ts), loads
 * what the state asks for from a {@link TuiData}, and answers input
 * (cli/tui/browser_input.ts maps keys and clicks to the actions here).
 *
 * The rules spec 000 ("Testing a full-screen program") names live here, where
 * a fake {@link TuiData} can hold them: moving the cursor to a namespace
 * loads that namespace's tools, with nothing to press; a reply for a
 * namespace the cursor has since left is dropped, not shown (each load has a
 * token, and only the newest one's reply is taken); a grid's reply is judged
 * the same way. The live views reload when the daemon's events say
 * something changed, one load at a time (a change during a load asks for one
 * more after it).
 *
 * @module
 */

import { STATS_VIEWS, type StatsView } from "../../logs/stats.ts";
import type { TuiView } from "../../ops/tui_views.ts";
import { detailLines } from "./grid.ts";
import { layoutOf } from "./layout.ts";
import {
  activeList,
  type BrowserState,
  detailRows,
  emptyList,
  initialState,
  isGrid,
  listLength,
  type ListName,
  listState,
  placeCursor,
  selectedNamespace,
  selectedTool,
  visibleRows,
} from "./model.ts";
import type { GridView, LiveEvent, TuiData } from "./tui_data.ts";
import { errorToJson } from "../../core/errors.ts";

/** Which live views an event of each kind changes. */
function viewsChangedBy(event: LiveEvent): GridView[] {
  const kind = event.kind;
  if (kind === "poll") return ["log", "servers", "sessions"];
  const views: GridView[] = ["log"];
  if (kind.startsWith("server.")) views.push("servers");
  if (kind.startsWith("session.") || kind.startsWith("call.")) views.push("sessions");
  if (kind.startsWith("call.")) views.push("stats");
  return views;
}

/** The controller of one browser. */
export class Browser {
  readonly state: BrowserState;
  readonly #data: TuiData;
  readonly #listeners = new Set<() => void>();
  /** Aborted when the browser closes: the live feed and every load. */
  readonly #closed = new AbortController();
  /** The newest load of each thing: only its reply is taken. */
  readonly #tokens = new Map<string, number>();
  readonly #aborts = new Map<string, AbortController>();
  /** Grid views a change arrived for while they loaded: loaded once more after. */
  readonly #again = new Set<GridView>();
  /** Grid views whose rows a change made stale while another view was shown. */
  readonly #stale = new Set<GridView>();
  readonly #pending = new Set<Promise<unknown>>();
  #nextToken = 0;
  /** Bumped at every change: what a renderer compares. */
  version = 0;

  constructor(data: TuiData, options: { view?: TuiView; columns: number; rows: number }) {
    this.#data = data;
    this.state = initialState(options.view ?? "tools", options.columns, options.rows);
  }

  /** Loads the namespaces and the first view, and starts following the daemon. */
  start(): void {
    this.loadNamespaces();
    if (isGrid(this.state.view)) this.loadGrid(this.state.view);
    this.#data.follow(
      (event) => this.#onLive(event),
      (mode) => this.#change(() => this.state.live = mode),
      this.#closed.signal,
    );
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once no load is in flight (for tests; a load started meanwhile is waited for too). */
  async idle(): Promise<void> {
    while (this.#pending.size) await Promise.allSettled([...this.#pending]);
  }

  /** Stops the live feed and every load. */
  close(): void {
    this.#closed.abort();
  }

  /** Rows a list shows on this screen. */
  get listHeight(): number {
    return layoutOf(this.state.columns, this.state.rows).listHeight;
  }

  // ---- loads ----------------------------------------------------------------------------------

  /** Loads the namespaces (again), then the tools of the one under the cursor. */
  loadNamespaces(): void {
    const list = this.state.namespaces;
    this.#change(() => list.loading = true);
    this.#load("namespaces", (signal) => this.#data.namespaces(signal), (items) => {
      list.items = items;
      list.loading = false;
      list.error = undefined;
      placeCursor(list, list.cursor, listLength(this.state, "namespaces"), this.listHeight);
      this.selectNamespace(true);
    }, (error) => {
      list.loading = false;
      list.error = error;
    });
  }

  /**
   * Shows the tools of the namespace under the cursor, loading them when it
   * changed (or `force`). The load before it is aborted, and its reply, if it
   * comes anyway, dropped.
   */
  selectNamespace(force = false): void {
    const namespace = selectedNamespace(this.state)?.namespace;
    if (!force && namespace === this.state.tools.namespace) return;
    this.#change(() => {
      this.state.tools = { ...emptyList(), namespace, loading: namespace !== undefined };
    });
    if (namespace === undefined) {
      this.#aborts.get("tools")?.abort();
      this.#tokens.delete("tools");
      return;
    }
    this.#load("tools", (signal) => this.#data.tools(namespace, signal), (items) => {
      const tools = this.state.tools;
      tools.items = items;
      tools.loading = false;
    }, (error) => {
      this.state.tools.loading = false;
      this.state.tools.error = error;
    });
  }

  /**
   * Loads one grid view's table (again). While a load is in flight another
   * is queued after it, unless `restart`: then the one in flight is
   * superseded and its reply dropped (its question changed: another stats
   * dimension).
   */
  loadGrid(view: GridView, restart = false): void {
    const grid = this.state.grids[view];
    if (grid.loading && !restart) {
      this.#again.add(view);
      return;
    }
    this.#stale.delete(view);
    this.#change(() => grid.loading = true);
    const query = view === "stats" ? { dimension: this.state.dimension } : {};
    const settle = () => {
      grid.loading = false;
      if (this.#again.delete(view)) queueMicrotask(() => this.loadGrid(view));
    };
    this.#load(`grid:${view}`, (signal) => this.#data.grid(view, query, signal), (table) => {
      const length = visibleRows(this.state, view).length;
      // The log reads newest last: a cursor on the last row stays on the last row.
      const atEnd = grid.grid === undefined || grid.cursor >= length - 1;
      grid.grid = table;
      grid.error = undefined;
      settle();
      const rows = visibleRows(this.state, view).length;
      placeCursor(grid, view === "log" && atEnd ? rows - 1 : grid.cursor, rows, this.listHeight);
    }, (error) => {
      grid.error = error;
      settle();
    });
  }

  /**
   * Runs one load under `key`: a new one supersedes (and aborts) the one
   * before it, whose reply is then dropped and counted in `state.dropped`.
   */
  #load<T>(
    key: string,
    request: (signal: AbortSignal) => Promise<T>,
    take: (value: T) => void,
    fail: (message: string) => void,
  ): void {
    this.#aborts.get(key)?.abort();
    const abort = new AbortController();
    this.#closed.signal.addEventListener("abort", () => abort.abort(), { once: true });
    this.#aborts.set(key, abort);
    const token = ++this.#nextToken;
    this.#tokens.set(key, token);
    const current = () => this.#tokens.get(key) === token && !this.#closed.signal.aborted;
    const done = request(abort.signal).then(
      (value) => {
        if (!current()) return this.#change(() => this.state.dropped++);
        this.#change(() => take(value));
      },
      (error) => {
        if (!current()) return this.#change(() => this.state.dropped++);
        this.#change(() => fail(errorToJson(error).message));
      },
    ).finally(() => this.#pending.delete(done));
    this.#pending.add(done);
  }

  // ---- actions --------------------------------------------------------------------------------

  /** Moves the cursor of the active list by `delta` rows (or to `to`). */
  move(delta: number, to?: number, list: ListName = activeList(this.state)): void {
    const state = listState(this.state, list);
    this.#change(() =>
      placeCursor(
        state,
        to ?? state.cursor + delta,
        listLength(this.state, list),
        this.listHeight,
      )
    );
    if (list === "namespaces") this.selectNamespace();
  }

  /** Shows `view`, loading its grid when it has none yet or it went stale. */
  show(view: TuiView): void {
    this.#change(() => {
      this.state.view = view;
      this.state.filtering = false;
      this.state.detail = undefined;
    });
    if (isGrid(view) && (!this.state.grids[view].grid || this.#stale.has(view))) {
      this.loadGrid(view);
    }
  }

  /** `r`: the current view read again. */
  refresh(): void {
    if (isGrid(this.state.view)) this.loadGrid(this.state.view);
    else this.loadNamespaces();
  }

  /** `d` in stats: the next dimension, loaded. */
  nextDimension(): void {
    const next = STATS_VIEWS[(STATS_VIEWS.indexOf(this.state.dimension) + 1) % STATS_VIEWS.length];
    this.#change(() => {
      this.state.dimension = next as StatsView;
      const grid = this.state.grids.stats;
      grid.cursor = grid.offset = 0;
    });
    this.loadGrid("stats", true);
  }

  /** Sets the active list's filter, the cursor back on its first row. */
  setFilter(text: string): void {
    const list = activeList(this.state);
    this.#change(() => {
      const state = listState(this.state, list);
      state.filter = text;
      state.cursor = state.offset = 0;
    });
    if (list === "namespaces") this.selectNamespace();
  }

  /** Opens or closes the filter editor. */
  setFiltering(open: boolean): void {
    this.#change(() => this.state.filtering = open);
  }

  /** Moves the cursor between the tools view's panes. */
  focus(pane: "namespaces" | "tools"): void {
    if (this.state.view !== "tools") return;
    this.#change(() => {
      this.state.focus = pane;
      this.state.filtering = false;
    });
  }

  /** Enter: opens the row under the cursor in full (a namespace: its tools get the cursor). */
  open(): void {
    const state = this.state;
    if (state.view === "tools") {
      if (state.focus === "namespaces") return this.focus("tools");
      const tool = selectedTool(state);
      if (!tool) return;
      const title = `${state.tools.namespace}.${tool.name}`;
      const lines = [
        ...(tool.tool !== tool.name ? [`tool: ${tool.tool}`] : []),
        ...tool.description.split(/\r?\n/),
        "",
        ...tool.signature.split(/\r?\n/),
      ];
      return this.#change(() => state.detail = { title, lines, offset: 0 });
    }
    const row = visibleRows(state, state.view)[state.grids[state.view].cursor];
    if (!row) return;
    const title = `${state.view}: row ${state.grids[state.view].cursor + 1}`;
    this.#change(() => state.detail = { title, lines: detailLines(row), offset: 0 });
  }

  /** Scrolls the opened row by `delta` lines (or to `to`). */
  scrollDetail(delta: number, to?: number): void {
    const detail = this.state.detail;
    if (!detail) return;
    const last = Math.max(0, detailRows(detail, this.state.columns).length - this.listHeight);
    this.#change(() => detail.offset = Math.max(0, Math.min(to ?? detail.offset + delta, last)));
  }

  /** Closes the opened row. */
  closeDetail(): void {
    this.#change(() => this.state.detail = undefined);
  }

  /** The terminal changed size. */
  resize(columns: number, rows: number): void {
    this.#change(() => {
      this.state.columns = columns;
      this.state.rows = rows;
    });
  }

  /** `q`: the browser ends. */
  quit(): void {
    this.#change(() => this.state.quit = true);
    this.close();
  }

  // ---- live -----------------------------------------------------------------------------------

  #onLive(event: LiveEvent): void {
    if (event.kind === "list.changed" || event.kind === "config.reloaded") this.loadNamespaces();
    for (const view of viewsChangedBy(event)) {
      if (this.state.view === view) this.loadGrid(view);
      else if (this.state.grids[view].grid) this.#stale.add(view);
    }
  }

  #change(apply: () => void): void {
    apply();
    this.version++;
    for (const listener of this.#listeners) listener();
  }
}
