/**
 * The views of `mcpx tui` (spec 000, "The browser", "Six views"), in the
 * order `]` moves through them and the header names them. Plain data, so the
 * op's declaration (ops/tui_ops.ts) and the browser (cli/tui/) read the same
 * list without the browser loading zod.
 *
 * @module
 */

/** Every view of the browser, in header order. */
export const TUI_VIEWS = ["tools", "log", "stats", "servers", "sessions", "storage"] as const;

/** One of {@link TUI_VIEWS}. */
export type TuiView = typeof TUI_VIEWS[number];
