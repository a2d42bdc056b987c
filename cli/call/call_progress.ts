/**
 * The progress line `mcpx call` shows on a terminal while a call runs: one
 * line on stderr, rewritten as the server reports progress
 * (`everything.trigger_long_running_operation: 3/5 (60%) step three`) and
 * erased when the answer comes. The call carries a `notify` token; this
 * long-polls the daemon's `progress` operation with it on a connection of its
 * own (engine/progress_board.ts), as lease waits are heard
 * (wire/lease_waits.ts), so the call stays one plain exchange. Nothing is
 * shown when stderr is not a terminal. Decision 0034.
 *
 * @module
 */

import { requestDaemon } from "../../wire/daemon_request.ts";
import { pause } from "../../wire/lease_waits.ts";
import type { ProgressUpdate } from "../../engine/progress_board.ts";
import { terminalText } from "../../core/terminal_text.ts";
import { McpxError } from "../../core/errors.ts";

/** Erases the current terminal line: carriage return, then "erase to end of line" (ECMA-48 EL). */
const ERASE_LINE = "\r\x1b[K";

/**
 * The line for one progress update, at most `columns` characters, the
 * server's message shown terminal-safe (core/terminal_text.ts).
 *
 * @example
 * ```ts
 * import { callProgressLine } from "./call_progress.ts";
 * const line = callProgressLine("ns.job", { seq: 1, progress: 3, total: 5, message: "three" }, 79);
 * if (line !== "ns.job: 3/5 (60%) three") throw new Error(line);
 * ```
 */
export function callProgressLine(what: string, update: ProgressUpdate, columns: number): string {
  const { progress, total, message } = update;
  const amount = total !== undefined && total > 0
    ? `${progress}/${total} (${Math.min(100, Math.floor((progress / total) * 100))}%)`
    : String(progress);
  const text = message ? ` ${terminalText(message.replace(/\s+/g, " "))}` : "";
  const line = `${what}: ${amount}${text}`;
  return line.length > columns ? `${line.slice(0, Math.max(1, columns - 1))}…` : line;
}

/**
 * Shows the progress of the call carrying `token` until `signal` aborts,
 * then erases the line. Never throws: a daemon that does not answer, or has
 * no `progress` operation, ends the watch quietly.
 *
 * @param socket The daemon's socket.
 * @param what The call, as the line names it (`ns.tool`).
 * @param write Writes to the terminal (stderr), as is.
 */
export async function watchCallProgress(
  socket: string,
  token: string,
  what: string,
  write: (text: string) => void,
  options: { signal: AbortSignal; version: string; columns?: number; token?: string },
): Promise<void> {
  const { signal } = options;
  let after = 0;
  let shown = false;
  try {
    while (!signal.aborted) {
      let update: ProgressUpdate | null;
      try {
        ({ progress: update } = await requestDaemon<{ progress: ProgressUpdate | null }>(
          socket,
          "progress",
          { token, after, holdMs: 20_000 },
          { signal, version: options.version, token: options.token },
        ));
      } catch (error) {
        // The daemon this call is starting does not answer yet: ask again; anything else ends it.
        if (
          signal.aborted || !(error instanceof McpxError) || error.code !== "daemon-unavailable"
        ) {
          return;
        }
        await pause(250, signal);
        continue;
      }
      if (signal.aborted) return;
      if (update) {
        after = update.seq;
        write(ERASE_LINE + callProgressLine(what, update, options.columns ?? columns()));
        shown = true;
      } else {
        // No progress yet (or the call is ending): ask again shortly, not in a tight loop.
        await pause(100, signal);
      }
    }
  } finally {
    if (shown) write(ERASE_LINE);
  }
}

/** The terminal's width less one, else 79 (as cli/discovery/start_progress.ts's line is bounded). */
function columns(): number {
  try {
    return (Deno.consoleSize().columns || 80) - 1;
  } catch {
    return 79;
  }
}
