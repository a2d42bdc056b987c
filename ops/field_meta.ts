/**
 * What an op's input field says about itself beyond its type and
 * description, as JSON Schema extension keywords the generated table carries
 * (ops/gen.ts `FieldRow`), so every surface reads it from the one
 * declaration instead of a hand-written list:
 *
 * - `x-surface: "cli"`: the command line alone has the field (how it prints,
 *   a server named on the command line); the CLI does not send it to the
 *   op's daemon route (cli/op_request.ts) and `serve` does not offer it.
 * - `x-setting: <name>`: left out, the field is the caller's setting of that
 *   name (config/settings.ts), which the CLI sends (`search.limit`,
 *   `tasks.ttl`): the daemon answers with the caller's settings, not its own.
 *
 * @module
 */

import * as z from "zod";
import { parseDuration } from "../config/duration.ts";

/** The field only the command line has: not sent to the daemon, not offered by `serve`. */
export function commandLineOnly<T extends z.ZodType>(schema: T): T {
  return schema.meta({ "x-surface": "cli" }) as T;
}

/** The field that, left out, is the caller's setting `name` (e.g. `search.limit`). */
export function fromSetting<T extends z.ZodType>(schema: T, name: string): T {
  return schema.meta({ "x-setting": name }) as T;
}

/**
 * A caller's limit as a number of ms: a whole number of ms, or a duration
 * as config/duration.ts reads it, at least 1 ms and at most the timer limit
 * (24 days: a timer given more fires at once).
 *
 * @throws {RangeError} Naming the value, what is accepted and the limit.
 */
function limitMs(value: string | number): number {
  if (typeof value === "number" && (!Number.isInteger(value) || value < 1)) {
    throw new RangeError(
      `must be a whole number of ms of at least 1, or a duration such as "30s"; got ${value}`,
    );
  }
  const ms = parseDuration(value);
  if (ms < 1) throw new RangeError(`must be more than 0, got ${JSON.stringify(value)}; e.g. "30s"`);
  return ms;
}

/**
 * A limit in ms, given as a whole number of ms or as a duration
 * (`30s`, `2m`, `1500`), so the command line passes what was typed and a
 * program passes a number; the handler gets ms, never more than the timer
 * limit (config/duration.ts `MAX_DURATION_MS`).
 *
 * @example
 * ```ts
 * import { DURATION_MS } from "./field_meta.ts";
 * if (DURATION_MS.parse("2m") !== 120_000 || DURATION_MS.parse(5) !== 5) throw new Error();
 * for (const bad of ["soon", 0, 1.5, "30d", 2 ** 31]) {
 *   if (DURATION_MS.safeParse(bad).success) throw new Error(`accepted ${bad}`);
 * }
 * ```
 */
export const DURATION_MS: z.ZodType<number, string | number> = z.union([z.string(), z.number()])
  .transform((value, ctx) => {
    try {
      return limitMs(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });
