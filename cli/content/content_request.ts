/**
 * What `mcpx prompts` and `mcpx resources` send with every request besides
 * their own fields: the `--timeout` given, and the pagination bounds of the
 * caller's settings (`listing.maxPages`, `listing.maxItems`,
 * `response.maxBytes`; engine/pagination.ts applies them in the daemon).
 * Also the check each makes before asking: a configuration exists, and has
 * the namespace named (cli/context.ts `configuredServer`).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { parseTimeoutFlag } from "../../config/timeout_flag.ts";
import { noConfigMessage } from "../../config/discover.ts";
import { McpxError } from "../../core/errors.ts";

/**
 * The request fields of ops/routes.ts `CONTENT_FIELDS`, from the caller's
 * settings, once the configuration is found to have `namespace` when one is
 * named. @throws {McpxError} `no-config`; {NotFoundError} for an unknown namespace.
 */
export async function contentFields(
  ctx: CliContext,
  timeout: string | undefined,
  namespace?: string,
): Promise<Record<string, number>> {
  if (namespace !== undefined) {
    // A name the configuration does not have fails before any daemon starts.
    await ctx.configuredServer(namespace);
  } else {
    const config = await ctx.config();
    // A daemon elsewhere (daemon.endpoint) resolves the name from its own configuration.
    if (config.path === null && !(await ctx.endpoint())) {
      throw new McpxError("no-config", noConfigMessage(config.searched ?? [], ctx.cwd));
    }
  }
  return {
    ...(typeof timeout === "string" ? { timeoutMs: parseTimeoutFlag(timeout) } : {}),
    maxPages: await ctx.setting("listing.maxPages"),
    maxItems: await ctx.setting("listing.maxItems"),
    maxResponseBytes: await ctx.setting("response.maxBytes"),
  };
}
