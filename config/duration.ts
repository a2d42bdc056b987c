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

/** Why {@link parseDuration} refused a value. */
export type DurationProblem = "format" | "negative" | "too-long";

/**
 * A value {@link parseDuration} refused, saying why as data: `problem`, what
 * the value must be (`requirement`, for "must be …" sentences) and how to
 * write it instead (`fix`), so a message about the format never talks about
 * the limit and the other way round.
 */
export class DurationError extends RangeError {
  readonly problem: DurationProblem;
  /** e.g. `a number of milliseconds or a string like "500ms", …` or `a duration of at most 24d (…)`. */
  readonly requirement: string;
  /** e.g. `write "5m"`. */
  readonly fix: string;
  constructor(
    message: string,
    facts: { problem: DurationProblem; requirement: string; fix: string },
  ) {
    super(message);
    this.name = "DurationError";
    this.problem = facts.problem;
    this.requirement = facts.requirement;
    this.fix = facts.fix;
  }
}

/** Unit words people write, by the unit mcpx reads. */
const UNIT_WORDS: [RegExp, keyof typeof UNIT_MS][] = [
  [/^(msecs?|millis(econds?)?|milliseconds?)$/i, "ms"],
  [/^(secs?|seconds?)$/i, "s"],
  [/^(mins?|minutes?)$/i, "m"],
  [/^(hrs?|hours?)$/i, "h"],
  [/^(days?)$/i, "d"],
];

/** The way to write a value such as `"5 mins"` (`"5m"`), or undefined. */
function spelledOut(text: string): string | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*$/.exec(text);
  if (!m) return undefined;
  const unit = UNIT_WORDS.find(([words]) => words.test(m[2]))?.[1];
  return unit ? `${m[1]}${unit}` : undefined;
}

function formatError(value: unknown): DurationError {
  const text = typeof value === "string" ? value : undefined;
  if (
    (typeof value === "number" && value < 0) ||
    (text !== undefined && /^\s*-\s*\d/.test(text))
  ) {
    const positive = text === undefined
      ? String(-(value as number))
      : JSON.stringify(text.replace(/^\s*-\s*/, ""));
    return new DurationError(
      `invalid duration ${
        describeValue(value)
      }: a duration cannot be negative; use ${DURATION_FORMS}`,
      {
        problem: "negative",
        requirement: `a duration (${DURATION_FORMS}), never negative`,
        fix: `write it without the minus sign, e.g. ${positive}`,
      },
    );
  }
  const respelled = text === undefined ? undefined : spelledOut(text);
  return new DurationError(
    `invalid duration ${describeValue(value)}; use ${DURATION_FORMS}${
      respelled ? ` (here ${JSON.stringify(respelled)})` : ""
    }`,
    {
      problem: "format",
      requirement: `a duration (${DURATION_FORMS})`,
      fix: respelled
        ? `write ${JSON.stringify(respelled)}: the unit's short name right after the number`
        : `write e.g. "30s" or "5m"`,
    },
  );
}

/**
 * Parses a duration into milliseconds.
 *
 * @param value A non-negative number of ms, or a string `<number><unit>` where unit is
 *   `ms`, `s`, `m`, `h` or `d` (decimals allowed: `"1.5h"`); a bare digit string is ms.
 * @param options `maxMs`: the longest accepted, in ms (default {@link MAX_DURATION_MS},
 *   the timer limit; `Infinity` for a duration no timer waits on, such as a retention).
 * @returns Whole milliseconds (rounded), ≥ 0 and ≤ `maxMs`.
 * @throws {DurationError} (a `RangeError`) When `value` is not one of the accepted forms or is
 *   negative (`problem` `format` or `negative`: the message names the value and lists the
 *   forms, and a spelled-out unit such as `"5 mins"` gets its short form), or is longer than
 *   `maxMs` (`too-long`: naming the value and the limit).
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
  if (ms === undefined) throw formatError(value);
  const maxMs = options.maxMs ?? MAX_DURATION_MS;
  if (ms > maxMs) {
    throw new DurationError(
      `duration ${describeValue(value)} is longer than the limit of ${durationLimit(maxMs)}; ` +
        `use at most ${formatDuration(maxMs)}`,
      {
        problem: "too-long",
        requirement: `a duration of at most ${durationLimit(maxMs)}`,
        fix: `write at most ${JSON.stringify(formatDuration(maxMs))}`,
      },
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
