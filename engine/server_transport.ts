/**
 * The transport an instance speaks to its server through: a stdio child in
 * its own process group (engine/stdio_transport.ts) with the daemon's
 * environment less mcpx's own variables, or a Streamable HTTP / SSE remote
 * (engine/remote_transport.ts).
 *
 * @module
 */

import { authEnv } from "../config/auth.ts";
import type { Transport } from "@modelcontextprotocol/client";
import type { ServerSpec } from "../config/types.ts";
import { settingEnvName, SETTINGS } from "../config/settings.ts";
import { ProcessGroupStdioTransport } from "./stdio_transport.ts";
import { remoteTransport } from "./remote_transport.ts";
import { WIRE_CHECK_ENV, wireChecked } from "./wire_check.ts";
import { resultTypeDefaulted } from "./result_type.ts";
import { oauthApplies, oauthTargetOf } from "./oauth_session.ts";
import { mcpxPaths } from "../config/paths.ts";

/**
 * mcpx's own variables (session ids, the configuration path, every setting's
 * `MCPX_…` name) describe the shell that started the daemon, not the server:
 * they are not passed on, so a server never sees a session it does not serve.
 */
const MCPX_OWN = new Set([
  "MCPX_SESSION_ID",
  "MCPX_PARENT_SESSION_ID",
  "MCPX_CONFIG",
  "MCPX_TRACE",
  WIRE_CHECK_ENV,
  ...SETTINGS.flatMap((s) => [settingEnvName(s.name), ...(s.envAliases ?? [])]),
]);

/** The daemon's environment without mcpx's own variables. */
export function serverEnvironment(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !MCPX_OWN.has(name)));
}

/**
 * A new transport to `spec`'s server; a stdio one starts nothing until connected.
 * With `MCPX_WIRE_CHECK` set (tests only) its frames are checked (engine/wire_check.ts).
 * A remote one of the configuration file `configPath` uses the OAuth tokens
 * `mcpx auth` stored for it, when nothing else authorizes it (engine/oauth_session.ts).
 */
export function makeTransport(
  spec: ServerSpec,
  env: Record<string, string>,
  configPath?: string | null,
): Transport {
  if (spec.transport !== "stdio") {
    const oauth = configPath && oauthApplies(spec)
      ? oauthTargetOf(spec, configPath, mcpxPaths(env).stateDir)
      : undefined;
    return resultTypeDefaulted(wireChecked(remoteTransport(spec, oauth), spec.name));
  }
  return resultTypeDefaulted(wireChecked(
    new ProcessGroupStdioTransport({
      command: spec.command!,
      args: spec.args,
      // The `env` kind of `auth` (config/auth.ts); config/_auth.ts refuses a name `env` sets too.
      env: { ...serverEnvironment(env), ...spec.env, ...authEnv(spec.auth) },
      cwd: spec.cwd,
    }),
    spec.name,
  ));
}
