/**
 * The configuration file `mcpx trust` and `mcpx untrust` act on: the one
 * named (resolved against the working directory), else the one this
 * directory uses.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { loadConfig } from "../../config/load.ts";
import { noConfigMessage } from "../../config/discover.ts";
import { resolve } from "../../core/posix_path.ts";
import type { LoadedConfig } from "../../config/types.ts";
import { McpxError } from "../../core/errors.ts";

/**
 * The configuration to trust or untrust.
 *
 * @param file A path as typed (absent: this directory's configuration).
 * @throws {McpxError} `no-config` without `file` where no configuration is found.
 * @throws {ConfigError} When the file cannot be loaded.
 */
export async function trustTarget(
  ctx: CliContext,
  file: string | undefined,
): Promise<LoadedConfig> {
  if (file !== undefined) {
    return await loadConfig({ cwd: ctx.cwd, env: ctx.env, path: resolve(ctx.cwd, file) });
  }
  const config = await ctx.config();
  if (config.path === null) {
    throw new McpxError("no-config", noConfigMessage(config.searched ?? [], ctx.cwd));
  }
  return config;
}
