/**
 * `mcpx tui` (also `mcpx --tui`, and `mcpx` alone on a terminal): the
 * full-screen browser (spec 000, "The browser"; decision 0083). Its views
 * read through the command line's own operations (cli/tui/tui_data_cli.ts);
 * what it draws with, ink and React, is imported only here, once the
 * terminal is known to be one, so no other command loads them.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { McpxError, UsageError } from "../../core/errors.ts";
import { processIo } from "../../core/io.ts";
import { onTerminal } from "../command_line.ts";
import { exited, type Streamed } from "../../ops/outcome.ts";
import type { InputOf } from "../../ops/op.ts";
import type { tui } from "../../ops/tui_ops.ts";
import { Browser } from "./browser.ts";
import { cliData } from "./tui_data_cli.ts";
import { MIN_SIZE } from "./layout.ts";

/**
 * Runs the browser until the person quits.
 *
 * @returns `exited(0)` once quit.
 * @throws {UsageError} When stdin or stdout is not a terminal (the text commands are named).
 * @throws {McpxError} `terminal-too-small` for a terminal under {@link MIN_SIZE}.
 */
export async function handle(ctx: CliContext, input: InputOf<typeof tui>): Promise<Streamed> {
  // Only the process's own terminal can be drawn on: not a relayed or captured command's output.
  if (ctx.io !== processIo || !onTerminal()) {
    throw new UsageError(
      "mcpx tui draws on a terminal, and stdin and stdout are not both one; " +
        "`mcpx ls`, `mcpx types`, `mcpx log`, `mcpx stats` and `mcpx status` print the same as text",
    );
  }
  const { columns, rows } = Deno.consoleSize();
  if (columns < MIN_SIZE.columns || rows < MIN_SIZE.rows) {
    throw new McpxError(
      "terminal-too-small",
      `mcpx tui needs a terminal of at least ${MIN_SIZE.columns}×${MIN_SIZE.rows}; ` +
        `this one is ${columns}×${rows}`,
    );
  }
  // Settings and the configuration are read now, so a broken file is said before drawing starts.
  await ctx.config();
  const browser = new Browser(cliData(ctx), { view: input.view, columns, rows });
  const { runTerminal } = await import("./terminal.ts");
  await runTerminal(browser);
  return exited(0);
}
