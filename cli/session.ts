/**
 * `mcpx session` (being built: issue 4).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { UsageError } from "../errors.ts";

export function run(
  _ctx: CliContext,
  _args: string[],
  _options: Record<string, unknown>,
): Promise<number> {
  return Promise.reject(new UsageError("x is not built yet"));
}
