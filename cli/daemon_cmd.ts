/**
 * `mcpx daemon`: run this configuration's daemon in the foreground. It stays
 * up until stopped (`mcpx stop`, Ctrl-C); records go to the durable log and,
 * readable, to stderr.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { runDaemon } from "../daemon/main.ts";
import { type Level, mirrorToStderr, setLogLevel } from "../daemon/log.ts";

export async function run(ctx: CliContext): Promise<number> {
  const config = await ctx.config();
  const settings = await ctx.settings();
  setLogLevel(settings.values["logging.level"].value as Level);
  mirrorToStderr();
  ctx.io.err(
    `mcpx daemon for ${config.path ?? "(no config)"} (fingerprint ${config.fingerprint})\n`,
  );
  const code = await runDaemon({
    configPath: config.path,
    fingerprint: config.fingerprint,
    mode: "foreground",
    idleTimeoutMs: 0,
    env: ctx.env,
    cwd: ctx.cwd,
    versionOverride: String(settings.values["plumbing.version"].value) || undefined,
    logging: {
      dir: await ctx.logsDir(),
      maxFileSize: settings.values["logging.maxFileSize"].value as number,
      retentionMs: settings.values["logging.retention"].value as number,
    },
  });
  if (code === 4) {
    ctx.io.err("a daemon for this configuration is already running (`mcpx daemons`)\n");
  }
  return code === 0 ? 0 : 1;
}
