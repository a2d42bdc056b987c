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
import { type Answered, exited, ok, type Streamed } from "../../ops/outcome.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { daemon } from "../../ops/engine_ops.ts";
import { DaemonUnavailableError } from "../../core/errors.ts";

/**
 * Runs this configuration's daemon here until it stops, its records mirrored to stderr.
 *
 * @returns `exit` 0 once the daemon has stopped.
 * @throws {McpxError} `daemon-running` when a daemon already serves this configuration.
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof daemon> = {},
): Promise<Streamed | Answered<OutputOf<typeof daemon>>> {
  if (input.action === "upgrade") return ok(await upgrade(ctx));
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

/**
 * `mcpx daemon upgrade`: asks the running daemon to hand its servers to one of
 * the installed version (daemon/upgrade.ts); never starts a daemon.
 *
 * @throws {DaemonUnavailableError} when no daemon serves this configuration.
 * @throws {McpxError} `upgrade-busy` or `upgrade-failed` as the daemon answers them.
 */
async function upgrade(ctx: CliContext): Promise<OutputOf<typeof daemon>> {
  const none = () =>
    new DaemonUnavailableError(
      `no daemon serves this configuration: there is nothing to upgrade; ` +
        `the next command starts one of the installed version`,
    );
  const { probeDaemon } = await import("../daemon_connect.ts");
  if (!(await probeDaemon(await ctx.existingDaemonSocket()))) throw none();
  return await ctx.request<OutputOf<typeof daemon>>("upgrade", {}, {
    // Gone meanwhile: starting a daemon to upgrade it would be pointless.
    beforeStart: () => Promise.reject(none()),
  });
}

/** `--json` prints the document on one line. */
export const jsonLine = true;

/** `daemon 123 → 456: 3 servers kept; longest wait 41 ms; took 310 ms`. */
export function text(result: OutputOf<typeof daemon>): string {
  const plural = result.kept === 1 ? "" : "s";
  let out = `daemon ${result.oldPid} → ${result.newPid} (mcpx ${result.version}): ` +
    `${result.kept} server${plural} kept; longest wait ${result.longestWaitMs} ms ` +
    `(${result.waited} request${
      result.waited === 1 ? "" : "s"
    } waited); took ${result.tookMs} ms\n`;
  if (result.stopped) {
    out += `${result.stopped} remote instance(s) stopped; the next call reconnects\n`;
  }
  for (const f of result.failed) {
    out += `could not adopt ${f.server}${f.pid ? ` (pid ${f.pid})` : ""}: ${f.error}\n`;
  }
  return out;
}
