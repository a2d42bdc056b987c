/**
 * `mcpx openapi`: the OpenAPI 3.1 document of the daemon's HTTP API
 * (ops/openapi.ts, generated from the op table), printed as JSON. It is the
 * same with or without `--json`, and reads no configuration.
 *
 * @module
 */

import { openApiDocument } from "../../ops/openapi.ts";
import { type Answered, ok } from "../../ops/outcome.ts";

/**
 * Answers `mcpx openapi`: the document, which the command line prints as
 * JSON in either mode (the module has no text renderer).
 */
export function handle(): Promise<Answered<Record<string, unknown>>> {
  return Promise.resolve(ok(openApiDocument() as Record<string, unknown>));
}

/** The mode is read from `--json` alone, so deciding it reads no configuration. */
export const jsonFlagOnly = true;
