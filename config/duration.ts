/**
 * Durations as a user writes them in configuration: `"500ms"`, `"10s"`,
 * `"30m"`, `"4h"`, `"1d"`, or a bare number of milliseconds.
 *
 * Source: spec 000, "Sharing and scope" (`"idleTimeout": "5m"`) and
 * "One declaration per setting" (defaults are written as a user would type them).
 *
 * @module
 */

import { describeValue } from "./_describe.ts";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The accepted forms, for error messages. */
export const DURATION_FORMS =
  `a number of milliseconds or a string like "500ms", "10s", "30m", "4h", "1d"`;

/**
 * The longest duration accepted unless a caller allows more, in ms: 24 days.
 * Timers hold at most 2^31−1 ms (~24.8 days; the HTML timer specification's
 * signed 32-bit delay, which Deno follows) and fire at once when given more.
 */
export const MAX_DURATION_MS = 2_073_600_000;

/** A limit as messages write it: `24d (2073600000 ms)`. */
export function durationLimit(maxMs: number = MAX_DURATION_MS): string {
  return `${formatDuration(maxMs)} (${maxMs} ms)`;
}

/**
 * Parses a duration into milliseconds.
 *
 * @param value A non-negative number of ms, or a string `<number><unit>` where unit is
 *   `ms`, `s`, `m`, `h` or `d` (decimals allowed: `"1.5h"`); a bare digit string is ms.
 * @param options `maxMs`: the longest accepted, in ms (default {@link MAX_DURATION_MS},
 *   the timer limit; `Infinity` for a duration no timer waits on, such as a retention).
 * @returns Whole milliseconds (rounded), ≥ 0 and ≤ `maxMs`.
 * @throws {RangeError} When `value` is not one of the accepted forms (the message names the
 *   value and lists the forms), or is longer than `maxMs` (naming the value and the limit).
 * @example
 * ```ts
 * import { parseDuration } from "./duration.ts";
 * if (parseDuration("5m") !== 300_000) throw new Error();
 * if (parseDuration(250) !== 250) throw new Error();
 * ```
 */
export function parseDuration(value: unknown, options: { maxMs?: number } = {}): number {
  let ms: number | undefined;
  if (typeof value === "number") {
    if (Number.isFinite(value) && value >= 0) ms = Math.round(value);
  } else if (typeof value === "string") {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(value);
    if (m) ms = Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? "ms") as keyof typeof UNIT_MS]);
  }
  if (ms === undefined) {
    throw new RangeError(`invalid duration ${describeValue(value)}; use ${DURATION_FORMS}`);
  }
  const maxMs = options.maxMs ?? MAX_DURATION_MS;
  if (ms > maxMs) {
    throw new RangeError(
      `duration ${describeValue(value)} is longer than the limit of ${durationLimit(maxMs)}; ` +
        `use at most ${formatDuration(maxMs)}`,
    );
  }
  return ms;
}

/**
 * Formats milliseconds in the shortest form {@link parseDuration} reads back exactly:
 * the largest unit that divides `ms` evenly.
 *
 * @param ms A non-negative whole number of milliseconds.
 * @returns e.g. `"4h"`, `"90s"`, `"1500ms"`, `"0ms"`.
 * @throws {RangeError} When `ms` is negative, fractional or not finite.
 * @example
 * ```ts
 * import { formatDuration } from "./duration.ts";
 * if (formatDuration(14_400_000) !== "4h") throw new Error();
 * ```
 */
export function formatDuration(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0) {
    throw new RangeError(`cannot format ${ms} as a duration; pass whole milliseconds ≥ 0`);
  }
  if (ms === 0) return "0ms";
  for (const unit of ["d", "h", "m", "s"] as const) {
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}
