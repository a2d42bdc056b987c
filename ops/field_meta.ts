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
import { parseTimeoutFlag } from "../config/timeout_flag.ts";

/** The field only the command line has: not sent to the daemon, not offered by `serve`. */
export function commandLineOnly<T extends z.ZodType>(schema: T): T {
  return schema.meta({ "x-surface": "cli" }) as T;
}

/** The field that, left out, is the caller's setting `name` (e.g. `search.limit`). */
export function fromSetting<T extends z.ZodType>(schema: T, name: string): T {
  return schema.meta({ "x-setting": name }) as T;
}

/**
 * A limit in ms, given as a whole number of ms or as a duration
 * (`30s`, `2m`, `1500`: config/timeout_flag.ts), so the command line passes
 * what was typed and a program passes a number; the handler gets ms.
 *
 * @example
 * ```ts
 * import { DURATION_MS } from "./field_meta.ts";
 * if (DURATION_MS.parse("2m") !== 120_000 || DURATION_MS.parse(5) !== 5) throw new Error();
 * if (DURATION_MS.safeParse("soon").success) throw new Error("accepted soon");
 * ```
 */
export const DURATION_MS: z.ZodType<number, string | number> = z.union([
  z.number().int().min(1),
  z.string().transform((text, ctx) => {
    try {
      return parseTimeoutFlag(text);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  }),
]);
