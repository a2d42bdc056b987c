/**
 * The configuration a daemon serves, whichever way it runs (`mcpx daemon`,
 * daemon/main.ts, or inside the command with `--inline`, daemon/inline.ts):
 * the loaded file with the namespaces `paths.adapters` and `paths.apis`
 * declare (config/derived_servers.ts, decision 0052) and the redactor of both
 * (decision 0017). One step for both, so the fingerprint a daemon computes is
 * the one the command that started it computed, and a declared namespace's
 * secrets are replaced as a configured server's are.
 *
 * @module
 */

import type { LoadedConfig, ProtocolMode } from "../config/types.ts";
import { settingsHash, TrustGate } from "../config/trust.ts";
import { hookDeclarations } from "../config/hooks.ts";
import { HookRunner } from "../engine/hook_runner.ts";
import { dirname } from "../core/posix_path.ts";
import { Daemon, type DaemonMode } from "../engine/engine.ts";
import { schemaCachePath } from "../engine/schema_cache.ts";
import { configRedactor } from "../config/secrets.ts";
import type { Redactor } from "../core/redact.ts";
import type { SettingValues } from "../engine/daemon_settings.ts";
import type { AttachPolicy } from "../engine/session_attach.ts";

/**
 * `config` with its declared namespaces, and its redactor.
 *
 * @param config The configuration as loaded (config/load.ts `loadConfig`).
 * @param settings The daemon's setting values (`paths.adapters` and `paths.apis` are read:
 *   `:`-joined absolute paths, `""` for none).
 * @param env The variables the configuration and the declarations are expanded with.
 * @throws {ConfigError} As config/derived_servers.ts `withDerivedServers` does: a missing
 *   place, a malformed declaration file, a declared name taken by a configured server.
 */
export async function daemonConfiguration<C extends LoadedConfig>(
  config: C,
  settings: SettingValues,
  env: Record<string, string>,
): Promise<{ config: C; redactor: Redactor }> {
  if (settings["paths.adapters"] || settings["paths.apis"]) {
    const { withDerivedServers } = await import("../config/derived_servers.ts");
    config = await withDerivedServers(config, (name) => String(settings[name] ?? ""), env);
  }
  return { config, redactor: configRedactor(config, env) };
}

/** What {@link daemonFor} needs besides the configuration and settings. */
export interface DaemonForOptions {
  mode: DaemonMode;
  env: Record<string, string>;
  redactor: Redactor;
  /** Ask the trust store before starting a project's servers (config/trust.ts). */
  trustCheck?: boolean;
  /** mcpx's state and cache directories (config/paths.ts `mcpxPaths`). */
  stateDir: string;
  cacheDir: string;
}

/**
 * The engine's daemon for `config`, its options read from the settings the
 * same way whichever way it runs: its trust gate (when the file is a
 * project's and `trustCheck` is set), schema cache, version, protocol default,
 * task TTL, event retention (`events.retention`), and the runner of the file's
 * hooks (config/hooks.ts), which under that gate runs them only while the file
 * is trusted with its settings. The daemon is its process's: the process's
 * question desk, log and subscription table join its event bus
 * (engine/process_events.ts).
 */
export async function daemonFor(
  config: LoadedConfig,
  settings: SettingValues,
  options: DaemonForOptions,
): Promise<Daemon> {
  const trust = options.trustCheck && config.path
    ? await TrustGate.open({
      file: config.path,
      realPath: config.realPath ?? config.path,
      document: config.document,
      stateDir: options.stateDir,
      hashes: config.runnableHashes,
    })
    : undefined;
  return new Daemon({
    config,
    trust,
    hooks: await hookRunner(config, settings, options, trust),
    cachePath: schemaCachePath(options.cacheDir, config.fingerprint),
    mode: options.mode,
    env: options.env,
    version: String(settings["plumbing.version"] ?? "") || undefined,
    redactor: options.redactor,
    protocolDefault: settings["protocol.default"] as ProtocolMode | undefined,
    taskTtlMs: typeof settings["tasks.ttl"] === "number" ? settings["tasks.ttl"] : undefined,
    eventRetention: typeof settings["events.retention"] === "number"
      ? settings["events.retention"]
      : undefined,
    processEvents: true,
    sessionAttach: settings["sessions.attach"] as AttachPolicy | undefined,
  });
}

/**
 * The runner of `config`'s declared hooks, or undefined when it declares none.
 * Hooks run in the file's real directory with the daemon's environment; under
 * a trust gate, only while the store holds the file's settings as loaded.
 */
async function hookRunner(
  config: LoadedConfig,
  settings: SettingValues,
  options: DaemonForOptions,
  trust: TrustGate | undefined,
): Promise<HookRunner | undefined> {
  const hooks = hookDeclarations(config.document, config.path, config.servers);
  if (hooks.length === 0) return undefined;
  const file = config.realPath ?? config.path;
  const hash = trust && file
    ? await settingsHash(config.document, file, options.env.HOME)
    : undefined;
  const timeout = settings["hooks.timeout"];
  const concurrency = settings["hooks.concurrency"];
  return new HookRunner({
    hooks,
    timeoutMs: typeof timeout === "number" && timeout > 0 ? timeout : 10_000,
    concurrency: typeof concurrency === "number" && concurrency >= 1 ? concurrency : 4,
    env: options.env,
    ...(file ? { cwd: dirname(file) } : {}),
    ...(trust && hash ? { refused: () => trust.settingsProblem(hash) } : {}),
  });
}
