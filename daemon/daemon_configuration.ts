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

import type { LoadedConfig } from "../config/types.ts";
import { configRedactor } from "../config/secrets.ts";
import type { Redactor } from "../core/redact.ts";
import type { SettingValues } from "../engine/daemon_settings.ts";

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
