/**
 * What a command shows on a terminal while it waits for servers to start:
 * one line on stderr, rewritten in place every second,
 * `starting everything, memory: 12s of 5m, npx is installing…`, and erased
 * once the answer comes. Nothing at all when the answer comes within the
 * first second, or when stderr is not a terminal (an agent's pipe gets no
 * control characters).
 *
 * The CLI learns what is starting by asking the daemon (`starting`
 * operation, one small request a second on its own connection) while its
 * own request is pending: the request itself stays one plain HTTP exchange.
 * docs/decisions/0010-first-start.md says why.
 *
 * @module
 */

import type { StartingRow } from "../../engine/starting.ts";
import { formatDuration } from "../../config/duration.ts";

/** How {@link withStartProgress} learns and shows progress. */
export interface StartProgressOptions {
  /** The starts in progress now (the daemon's `starting` operation); a throw counts as none. */
  poll(): Promise<StartingRow[]>;
  /** Writes to the terminal (stderr), as is. */
  write(text: string): void;
  /** Before the first poll, in ms: an answer within it shows nothing. Default 1000. */
  delayMs?: number;
  /** Between polls, in ms. Default 1000. */
  intervalMs?: number;
  /** The widest line written, in characters (the terminal's width less one). Default 79. */
  columns?: number;
}

/** Erases the current terminal line: carriage return, then "erase to end of line" (ECMA-48 EL). */
const ERASE_LINE = "\r\x1b[K";

/**
 * Awaits `work`, showing what is starting while it is pending.
 *
 * @returns What `work` resolves to; its rejection passes through.
 */
export async function withStartProgress<T>(
  work: Promise<T>,
  options: StartProgressOptions,
): Promise<T> {
  let shown = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    let rows: StartingRow[] = [];
    try {
      rows = await options.poll();
    } catch { /* the daemon is starting, or busy: try again next time */ }
    if (stopped) return;
    if (rows.length) {
      options.write(ERASE_LINE + progressLine(rows, options.columns ?? 79));
      shown = true;
    } else if (shown) {
      options.write(ERASE_LINE);
      shown = false;
    }
    timer = setTimeout(tick, options.intervalMs ?? 1000);
  };
  timer = setTimeout(tick, options.delayMs ?? 1000);
  try {
    return await work;
  } finally {
    stopped = true;
    clearTimeout(timer);
    if (shown) options.write(ERASE_LINE);
  }
}

/**
 * The progress line for the starts in progress, at most `columns` characters:
 * `starting <namespaces>: <elapsed> of <allowance>[, npx is installing[ <namespaces>]]…`.
 *
 * @example
 * ```ts
 * import { progressLine } from "./start_progress.ts";
 * const line = progressLine([{
 *   server: "everything", namespace: "everything", key: "global", elapsedMs: 12_300,
 *   allowanceMs: 300_000, bound: "firstStartTimeout", phase: "installing", runner: "npx",
 * }], 79);
 * if (line !== "starting everything: 12s of 5m, npx is installing…") throw new Error(line);
 * ```
 */
export function progressLine(rows: StartingRow[], columns: number): string {
  const names = (list: StartingRow[]) => {
    const unique = [...new Set(list.map((r) => r.namespace))];
    return unique.length > 4
      ? `${unique.slice(0, 4).join(", ")} +${unique.length - 4}`
      : unique.join(", ");
  };
  const elapsed = Math.max(...rows.map((r) => r.elapsedMs));
  const allowance = Math.max(...rows.map((r) => r.allowanceMs));
  const installing = rows.filter((r) => r.phase === "installing");
  const runner = installing[0]?.runner ?? "npx";
  const what = installing.length === 0
    ? ""
    : `, ${runner} is installing${installing.length < rows.length ? ` ${names(installing)}` : ""}`;
  const line = `starting ${names(rows)}: ${Math.floor(elapsed / 1000)}s ` +
    `of ${formatDuration(allowance)}${what}…`;
  return line.length > columns ? `${line.slice(0, Math.max(1, columns - 1))}…` : line;
}
