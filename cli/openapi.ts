/**
 * `mcpx openapi`: the OpenAPI 3.1 document of the daemon's HTTP API
 * (ops/openapi.ts, generated from the op table), printed as JSON. It is the
 * same with or without `--json`, and reads no configuration.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { printJson } from "./json_out.ts";
import { openApiDocument } from "../ops/openapi.ts";

/** @returns Exit code 0. */
export function run(ctx: CliContext): Promise<number> {
  printJson(ctx.io, openApiDocument());
  return Promise.resolve(0);
}
