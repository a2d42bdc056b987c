/**
 * The progress line `mcpx call` shows on a terminal while a call runs: one
 * line on stderr, rewritten as the server reports progress
 * (`everything.trigger_long_running_operation: 3/5 (60%) step three`) and
 * erased when the answer comes. The call hears its server's progress on its
 * own connection, each update in order before the answer (a `notify`
 * token, decision 0078), so the call stays one exchange. Nothing is shown
 * when stderr is not a terminal. Decision 0034.
 *
 * @module
 */

import type { WireNotification } from "../../wire/wire.ts";
import { terminalText } from "../../core/terminal_text.ts";

/** Erases the current terminal line: carriage return, then "erase to end of line" (ECMA-48 EL). */
const ERASE_LINE = "\r\x1b[K";

/** One progress update as a call hears it (MCP `notifications/progress` params, no token). */
type Progress = Extract<WireNotification, { method: "notifications/progress" }>["params"];

/**
 * The line for one progress update, at most `columns` characters, the
 * server's message shown terminal-safe (core/terminal_text.ts).
 *
 * @example
 * ```ts
 * import { callProgressLine } from "./call_progress.ts";
 * const line = callProgressLine("ns.job", { progress: 3, total: 5, message: "three" }, 79);
 * if (line !== "ns.job: 3/5 (60%) three") throw new Error(line);
 * ```
 */
export function callProgressLine(what: string, update: Progress, columns: number): string {
  const { progress, total, message } = update;
  const amount = total !== undefined && total > 0
    ? `${progress}/${total} (${Math.min(100, Math.floor((progress / total) * 100))}%)`
    : String(progress);
  const text = message ? ` ${terminalText(message.replace(/\s+/g, " "))}` : "";
  const line = `${what}: ${amount}${text}`;
  return line.length > columns ? `${line.slice(0, Math.max(1, columns - 1))}…` : line;
}

/** A call's progress line: told each notification, erased once. */
export interface ProgressLine {
  /** Shows a progress update (a log message shows nothing). */
  onNotification(notification: WireNotification): void;
  /** Erases the line, if one was shown. */
  erase(): void;
}

/**
 * The progress line of the call `what` (`ns.tool`).
 *
 * @param write Writes to the terminal (stderr), as is.
 * @param columns The line's bound, in characters (default: the terminal's width less one).
 *
 * @example
 * ```ts
 * import { callProgressLine, progressLine } from "./call_progress.ts";
 * let shown = "";
 * const line = progressLine("ns.job", (text) => shown += text, 79);
 * line.onNotification({ method: "notifications/progress", params: { progress: 1, total: 2 } });
 * line.erase();
 * const drawn = callProgressLine("ns.job", { progress: 1, total: 2 }, 79);
 * if (!shown.includes(drawn)) throw new Error(JSON.stringify(shown));
 * if (!shown.endsWith("\r\x1b[K")) throw new Error(JSON.stringify(shown));
 * ```
 */
export function progressLine(
  what: string,
  write: (text: string) => void,
  columns?: number,
): ProgressLine {
  let shown = false;
  return {
    onNotification(notification) {
      if (notification.method !== "notifications/progress") return;
      write(ERASE_LINE + callProgressLine(what, notification.params, columns ?? terminalWidth()));
      shown = true;
    },
    erase() {
      if (shown) write(ERASE_LINE);
      shown = false;
    },
  };
}

/** The terminal's width less one, else 79 (as cli/discovery/start_progress.ts's line is bounded). */
function terminalWidth(): number {
  try {
    return (Deno.consoleSize().columns || 80) - 1;
  } catch {
    return 79;
  }
}
