/**
 * The daemon inside one command (`--inline`, setting `daemon.inline`; spec 000,
 * "Running without a daemon"; decision 0051): the daemon's own handler
 * (daemon/http.ts) over a {@link Daemon}, served on a private socket of this
 * process for as long as the command runs, then stopped with every server it
 * started. The command and the scripts it runs talk to that socket as they
 * would to a daemon process, so nothing about a request differs; what
 * differs is lifetime: no server outlives the command, so nothing is pooled
 * between commands. It is for a sandbox that cannot fork a daemon that
 * outlives its command, and is off by default.
 *
 * Its records go to the durable log as a daemon's do; its servers' process
 * groups are recorded under the configuration's ledger with this process as
 * their owner, so if the command is killed outright, the next mcpx of this
 * configuration ends them (decision 0006). It writes no daemon record:
 * `mcpx daemons` lists daemons that other commands can reach.
 *
 * @module
 */

import { loadConfig } from "../config/load.ts";
import { mcpxPaths } from "../config/paths.ts";
import { daemonConfiguration, daemonFor } from "./daemon_configuration.ts";
import {
  closeLog,
  type Level,
  openDurableLog,
  setLogLevel,
  setLogRedactor,
  setServerRecordLimits,
} from "../engine/log.ts";
import type { SettingValues } from "../engine/daemon_settings.ts";
import { openGroupLedger } from "../engine/process_groups.ts";
import { openQuestionDesk, questionsPath } from "../engine/questions_open.ts";
import { logsDir } from "../logs/writer.ts";
import { daemonFiles } from "../wire/locate.ts";
import { McpxError } from "../core/errors.ts";
import { serveDaemon } from "./http.ts";
import { bodyLimit } from "../wire/body_limit.ts";

/** What {@link startInlineDaemon} needs: what the command resolved. */
export interface InlineDaemonOptions {
  /** The configuration file the command uses (null: none). */
  configPath: string | null;
  /** Its fingerprint as the command computed it; a mismatch is `config-changed`. */
  fingerprint: string;
  /** Every setting's value as the command resolved it (engine/daemon_settings.ts `settingValues`). */
  settings: SettingValues;
  env: Record<string, string>;
  cwd: string;
  /** Start no server the file has not trusted (config/trust.ts), as the command would ask a daemon to. */
  trustCheck: boolean;
}

/** A daemon running inside this process; disposing of it stops it and its servers. */
export interface InlineDaemon extends AsyncDisposable {
  /** The private socket its handler answers on (`<stateDir>/sockets/<fp>-inline-<pid>.sock`). */
  socket: string;
}

/**
 * Starts the daemon's handler in this process on a private socket.
 *
 * @returns The socket and the disposer that stops it: servers first, then
 *   the listener, the socket file and the log.
 * @throws {McpxError} `config-changed` when the file's fingerprint is not the
 *   command's; `unsafe-directory` when the socket's directory is not the user's alone.
 */
export async function startInlineDaemon(options: InlineDaemonOptions): Promise<InlineDaemon> {
  const paths = mcpxPaths(options.env);
  // With the namespaces declarations derive, as the command's configuration has them.
  const { config, redactor } = await daemonConfiguration(
    await loadConfig({ cwd: options.cwd, env: options.env, path: options.configPath ?? undefined }),
    options.settings,
    options.env,
  );
  if (config.fingerprint !== options.fingerprint) {
    throw new McpxError(
      "config-changed",
      `the configuration ${config.path ?? "(none)"} changed while the command was starting; ` +
        `run it again`,
    );
  }
  setLogRedactor(redactor);
  const settings = options.settings;
  setLogLevel(settings["logging.level"] as Level);
  const logDir = logsDir(paths.stateDir, String(settings["logging.dir"] ?? ""));
  openDurableLog({
    dir: logDir,
    source: `inline-${config.fingerprint.slice(0, 8)}-${Deno.pid}`,
    maxFileSize: settings["logging.maxFileSize"] as number,
    retentionMs: settings["logging.retention"] as number,
    maxDirSize: settings["logging.maxDirSize"] as number,
    redactor,
  });
  setServerRecordLimits({
    rate: settings["logging.serverRate"] as number,
    maxBytes: settings["logging.serverRecordBytes"] as number,
  });
  const files = daemonFiles(paths.stateDir, config.fingerprint, (name) => options.env[name]);
  openGroupLedger(files.groups, { redact: (text) => redactor.text(text) });
  openQuestionDesk(questionsPath(logDir), config.fingerprint, settings);
  const daemon = await daemonFor(config, settings, {
    mode: "inline",
    env: options.env,
    redactor,
    trustCheck: options.trustCheck,
    stateDir: paths.stateDir,
    cacheDir: paths.cacheDir,
  });
  const socket = daemonFiles(
    paths.stateDir,
    `${config.fingerprint}-inline-${Deno.pid}`,
    (name) => options.env[name],
  ).socket;
  try {
    await Deno.remove(socket);
  } catch { /* none left by an earlier process of this pid */ }
  let stopping: Promise<void> | undefined;
  // A `stop` request ends the handler's socket; the command's own end stops the rest.
  // deno-lint-ignore prefer-const
  let server: Deno.HttpServer<Deno.UnixAddr> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      daemon.stopping = true;
      await daemon.shutdown().catch(() => {});
      await server?.shutdown().catch(() => {});
      await Deno.remove(socket).catch(() => {});
      closeLog();
    })();
  server = await serveDaemon(daemon, socket, () => void stop(), {
    maxBodyBytes: bodyLimit(Number(settings["input.maxBytes"])),
  });
  return { socket, [Symbol.asyncDispose]: stop };
}
