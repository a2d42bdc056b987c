/**
 * `mcpx daemon`: run this configuration's daemon in the foreground. It stays
 * up until stopped (`mcpx stop`, Ctrl-C); records go to the durable log and,
 * readable, to stderr. It applies the settings this command resolved, as a
 * daemon a CLI starts on demand applies the ones its starter resolved.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { runDaemon } from "../daemon/main.ts";
import { settingValues } from "../engine/daemon_settings.ts";
import { mirrorToStderr } from "../engine/log.ts";

/**
 * @returns 0 once the daemon has stopped.
 * @throws {McpxError} `daemon-running` when a daemon already serves this configuration.
 */
export async function run(ctx: CliContext): Promise<number> {
  const config = await ctx.config();
  const settings = await ctx.settings();
  mirrorToStderr();
  ctx.io.err(
    `mcpx daemon for ${config.path ?? "(no config)"} (fingerprint ${config.fingerprint})\n`,
  );
  return await runDaemon({
    configPath: config.path,
    fingerprint: config.fingerprint,
    mode: "foreground",
    env: ctx.env,
    cwd: ctx.cwd,
    settings: settingValues(settings),
    trustCheck: await ctx.trustChecked(),
  });
}
