/**
 * What the browser reads, as an interface (spec 000, "Testing a full-screen
 * program": the view reads from an interface, not from the daemon client, so
 * a fake drives it in tests). cli/tui/tui_data_cli.ts answers it through the
 * operations the command line runs (`ls`, `types`, `log`, `stats`, `status`,
 * `session`); cli/tui/_fake_data.ts answers it in tests, replying when a test
 * says so.
 *
 * Every method takes an `AbortSignal`: the browser aborts a request once its
 * answer can no longer be shown (the cursor left the namespace). A reply
 * that comes anyway is dropped by the browser, not by the source.
 *
 * @module
 */

import type { Grid } from "./grid.ts";
import type { StatsView } from "../../logs/stats.ts";

/** One namespace in the left pane. */
export interface NamespaceItem {
  namespace: string;
  /** Tools the cache lists for it. */
  tools: number;
  /** `ls`'s state: `idle`, `live`, `starting`, `error`, `untrusted`, … */
  state: string;
  description: string;
  /** Why it has no tools, when it has an error. */
  error?: string;
}

/** One tool in the middle pane, with what the right pane shows for it. */
export interface ToolItem {
  /** The name a script calls (`namespace.fn`'s `fn`). */
  name: string;
  /** The server's own name of the tool. */
  tool: string;
  description: string;
  /** Its TypeScript declaration (`mcpx types`), or its input schema as JSON when none was generated. */
  signature: string;
}

/** The grid views, each a query answering a {@link Grid}. */
export type GridView = "log" | "stats" | "servers" | "sessions" | "storage";

/** What a grid query is given beyond its view: the stats dimension (`d` cycles it). */
export interface GridQuery {
  /** `mcpx stats`'s view for the stats grid (default `calls`). */
  dimension?: StatsView;
}

/**
 * Something happened in the daemon that a live view shows: an event of the
 * daemon's bus (engine/event_bus.ts `BusEvent`; its kind, such as
 * `server.crashed`), or, when the bus cannot be read, a tick of the poll.
 */
export interface LiveEvent {
  /** The bus's event kind, or `poll` for a tick of the fallback. */
  kind: string;
  /** The server the event is about, when it is about one. */
  server?: string;
}

/**
 * How the live views hear of changes: `events`, the daemon's event bus
 * (`GET /v1/events`); `polling`, a tick every few seconds, when no daemon
 * runs or it has no bus to read; `off` before the feed starts.
 */
export type LiveMode = "events" | "polling" | "off";

/** Everything the browser reads. */
export interface TuiData {
  /** The namespaces, as `mcpx ls` lists them. */
  namespaces(signal: AbortSignal): Promise<NamespaceItem[]>;
  /** The tools of one namespace with their signatures, as `mcpx types <namespace>` gives them. */
  tools(namespace: string, signal: AbortSignal): Promise<ToolItem[]>;
  /** One grid view's table. */
  grid(view: GridView, query: GridQuery, signal: AbortSignal): Promise<Grid>;
  /**
   * Calls `listener` for what happens in the daemon until `signal` aborts;
   * `onMode` is told how it listens, first once it knows, and again when that
   * changes (the bus went away: polling; it came back: events).
   */
  follow(
    listener: (event: LiveEvent) => void,
    onMode: (mode: LiveMode) => void,
    signal: AbortSignal,
  ): void;
}
