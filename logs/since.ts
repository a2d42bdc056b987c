/**
 * `--since` as the log commands take it: a duration back from now (`90s`,
 * `30m`, `1h`, `2d`) or a time (`2026-10-01`, `2026-10-01T12:00`,
 * `2026-10-01T12:00:00Z`; without a zone, local time).
 *
 * @module
 */

import { parseDuration } from "../config/duration.ts";

/**
 * The epoch milliseconds `--since` means.
 *
 * @param value What the user typed.
 * @param now The current time in ms (tests).
 * @returns Milliseconds since the epoch.
 * @throws {RangeError} naming the value and the accepted forms.
 * @example
 * ```ts
 * import { parseSince } from "./since.ts";
 * if (parseSince("1h", 7_200_000) !== 3_600_000) throw new Error();
 * if (parseSince("2026-10-01T00:00:00Z") !== Date.parse("2026-10-01T00:00:00Z")) throw new Error();
 * ```
 */
export function parseSince(value: string, now: number = Date.now()): number {
  const text = value.trim();
  if (/^\d+(\.\d+)?\s*(ms|s|m|h|d)$/.test(text)) return now - parseDuration(text);
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text)) {
    const iso = text.replace(" ", "T");
    // A date alone is UTC to Date.parse; make it local midnight like the other zone-less forms.
    const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00` : iso);
    if (!Number.isNaN(ms)) return ms;
  }
  throw new RangeError(
    `--since ${JSON.stringify(value)} is neither a duration nor a time; ` +
      `use e.g. 30m, 1h, 2d, 2026-10-01 or 2026-10-01T12:00`,
  );
}
