/**
 * `mcpx tui`: the full-screen browser for a person at a terminal (spec 000,
 * "The browser"; decision 0083). It runs in the CLI's own process and is no
 * daemon route and no MCP tool: it draws on the terminal it was started
 * from, and every view reads through operations that already have those
 * renderings (`ls`, `types`, `log`, `stats`, `status`, `session`).
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";
import { TUI_VIEWS } from "./tui_views.ts";

/** `mcpx tui` (also `mcpx --tui`, and `mcpx` alone on a terminal). */
export const tui = defineOp({
  name: "tui",
  description:
    "A full-screen browser for a person at a terminal: namespaces, their tools and one tool's " +
    "signature in three panes, and the log, stats, servers, sessions and storage as tables. " +
    "Also `mcpx --tui`, and `mcpx` with no command when stdin and stdout are terminals.",
  where: "cli",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({
    view: z.enum(TUI_VIEWS).optional().describe(
      `the view to open at: ${TUI_VIEWS.join(", ")} (default tools)`,
    ),
  }),
  // Nothing: it draws on the terminal until the person quits.
  output: z.never(),
  cli: {
    command: "tui",
    module: "./tui/tui.ts",
    usage: `mcpx tui [${TUI_VIEWS.join("|")}]`,
    summary: "browse namespaces, tools, the log, stats, servers, sessions and storage full-screen",
    args: [{ field: "view", name: "view", optional: true, complete: TUI_VIEWS }],
  },
});
