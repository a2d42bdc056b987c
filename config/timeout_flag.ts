/**
 * The `--timeout` flag of `mcpx call`, `mcpx run` and `mcpx exec`: one
 * validator, so the three commands accept and refuse the same values with the
 * same words. It sits below `cli/` and `runner/` because both import it
 * (CONVENTIONS.md, rule 13).
 *
 * @module
 */

import { parseDuration } from "./duration.ts";
import { UsageError } from "../core/errors.ts";

/**
 * Reads a `--timeout` value: a duration as {@link parseDuration} reads it,
 * more than zero.
 *
 * @param text The flag's value as typed (`"30s"`, `"5m"`, `"1500"` for ms).
 * @returns The limit in ms, > 0 and at most the timer limit (24 days).
 * @throws {UsageError} When `text` is not a duration, is zero or negative, or is
 *   longer than the limit; the message names the value and gives an example.
 * @example
 * ```ts
 * import { parseTimeoutFlag } from "./timeout_flag.ts";
 * if (parseTimeoutFlag("5m") !== 300_000) throw new Error();
 * try {
 *   parseTimeoutFlag("5x");
 *   throw new Error("accepted 5x");
 * } catch (error) {
 *   if ((error as Error).name !== "UsageError") throw error;
 * }
 * ```
 */
export function parseTimeoutFlag(text: string): number {
  const notPositive = () =>
    new UsageError(
      `--timeout must be more than 0, got ${JSON.stringify(text)}; e.g. --timeout 30s`,
    );
  if (/^\s*-/.test(text)) throw notPositive();
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (error) {
    throw new UsageError(`--timeout: ${(error as Error).message}`);
  }
  if (ms === 0) throw notPositive();
  return ms;
}
