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
import {
  type AdoptedServer,
  ProcessGroupStdioTransport,
  type StdioLaunch,
} from "./stdio_transport.ts";
import { type RemoteSession, remoteTransport } from "./remote_transport.ts";
import { WIRE_CHECK_ENV, wireChecked } from "./wire_check.ts";
import { resultTypeDefaulted } from "./result_type.ts";
import { credentialsOf, oauthApplies } from "./oauth_session.ts";
import { type OAuthTarget, oauthTargetOf } from "./oauth_target.ts";
import type { Credentials } from "./http_status.ts";
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
 * Where a remote server's OAuth tokens are, when its transport carries them:
 * a remote of the configuration file `configPath` that nothing else
 * authorizes (engine/oauth_session.ts `oauthApplies`); else undefined.
 */
export function oauthTargetFor(
  spec: ServerSpec,
  env: Record<string, string>,
  configPath?: string | null,
): OAuthTarget | undefined {
  return spec.transport !== "stdio" && configPath && oauthApplies(spec)
    ? oauthTargetOf(spec, configPath, mcpxPaths(env).stateDir)
    : undefined;
}

/** What a server whose entry gives no credential carries: nothing, or its `headers`. */
export const NO_CREDENTIALS: Credentials = { kind: "headers" };

/**
 * What `spec`'s requests carry to authorize them, for the advice a 401 or 403
 * gets (engine/http_status.ts): the stored OAuth tokens when its transport
 * carries them ({@link oauthTargetFor}), else its `auth` block or `headers`.
 */
export function credentialsFor(
  spec: ServerSpec,
  env: Record<string, string>,
  configPath?: string | null,
): Credentials {
  return credentialsOf(spec, oauthTargetFor(spec, env, configPath));
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
    const oauth = oauthTargetFor(spec, env, configPath);
    return resultTypeDefaulted(wireChecked(remoteTransport(spec, oauth), spec.name));
  }
  return resultTypeDefaulted(
    wireChecked(new ProcessGroupStdioTransport(stdioLaunch(spec, env)), spec.name),
  );
}

/**
 * The transport of a server another daemon handed over (`mcpx daemon upgrade`):
 * {@link makeTransport}'s, adopting a stdio server rather than spawning it, or
 * resuming a Streamable HTTP session by its id rather than opening one.
 */
export function adoptTransport(
  spec: ServerSpec,
  env: Record<string, string>,
  handed: { process?: AdoptedServer; session?: RemoteSession },
  configPath?: string | null,
): Transport {
  if (handed.process) {
    return resultTypeDefaulted(
      wireChecked(
        ProcessGroupStdioTransport.adopt(stdioLaunch(spec, env), handed.process),
        spec.name,
      ),
    );
  }
  const oauth = oauthTargetFor(spec, env, configPath);
  return resultTypeDefaulted(
    wireChecked(remoteTransport(spec, oauth, handed.session), spec.name),
  );
}

/** How `spec`'s stdio server is started. */
function stdioLaunch(spec: ServerSpec, env: Record<string, string>): StdioLaunch {
  return {
    command: spec.command!,
    args: spec.args,
    // The `env` kind of `auth` (config/auth.ts); config/_auth.ts refuses a name `env` sets too.
    env: { ...serverEnvironment(env), ...spec.env, ...authEnv(spec.auth) },
    cwd: spec.cwd,
  };
}
