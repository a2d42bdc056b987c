/**
 * The limit of an input mcpx reads whole, from the setting `input.maxBytes`
 * (core/bounded_read.ts reads with it; issue 9, "Input has no size limit").
 *
 * @module
 */

import type { InputLimit } from "../core/bounded_read.ts";
import { settingEnvName } from "./settings.ts";

/** The setting that bounds every input read whole. */
export const INPUT_MAX_BYTES = "input.maxBytes";

/**
 * The limit for a setting's resolved value, naming the setting and its
 * variable for the refusal.
 *
 * @param maxBytes `input.maxBytes` as resolved (bytes).
 * @example
 * ```ts
 * import { inputLimit } from "./input_limit.ts";
 * if (inputLimit(1024).env !== "MCPX_INPUT_MAX_BYTES") throw new Error();
 * ```
 */
export function inputLimit(maxBytes: unknown): InputLimit {
  return {
    maxBytes: Number(maxBytes),
    setting: INPUT_MAX_BYTES,
    env: settingEnvName(INPUT_MAX_BYTES),
  };
}
