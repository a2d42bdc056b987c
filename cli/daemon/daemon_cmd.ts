/**
 * `mcpx daemon`: run this configuration's daemon in the foreground. It stays
 * up until stopped (`mcpx stop`, Ctrl-C); records go to the durable log and,
 * readable, to stderr. It applies the settings this command resolved, as a
 * daemon a CLI starts on demand applies the ones its starter resolved.
 * A streamed op (decision 0064): the daemon's log on stderr is its output.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { runDaemon } from "../../daemon/main.ts";
import { settingValues } from "../../engine/daemon_settings.ts";
import { mirrorToStderr } from "../../engine/log.ts";
import { exited, type Streamed } from "../../ops/outcome.ts";

/**
 * Runs this configuration's daemon here until it stops, its records mirrored to stderr.
 *
 * @returns `exit` 0 once the daemon has stopped.
 * @throws {McpxError} `daemon-running` when a daemon already serves this configuration.
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function handle(ctx: CliContext): Promise<Streamed> {
  const config = await ctx.config();
  const settings = await ctx.settings();
  mirrorToStderr();
  ctx.io.err(
    `mcpx daemon for ${config.path ?? "(no config)"} (fingerprint ${config.fingerprint})\n`,
  );
  return exited(
    await runDaemon({
      configPath: config.path,
      fingerprint: config.fingerprint,
      mode: "foreground",
      env: ctx.env,
      cwd: ctx.cwd,
      settings: settingValues(settings),
      trustCheck: await ctx.trustChecked(),
    }),
  );
}
