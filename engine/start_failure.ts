/**
 * The message of a server that failed to start: what went wrong, with the
 * value and the fix (spec 000, "Honest failure reporting"): the setting to
 * raise after a timeout, the HTTP status and URL of a remote, the npm cache
 * folder to delete, and the stderr lines that matter. Secrets in it (the
 * URL's key, a token the server echoed) are replaced by their references
 * where the message leaves the daemon (core/redact.ts, decision 0017).
 *
 * @module
 */

import type { ServerSpec } from "../config/types.ts";
import { ServerError, type ServerErrorCode, TimeoutError } from "../core/errors.ts";
import { formatDuration } from "../config/duration.ts";
import type { StartAllowance } from "./starting.ts";
import { tailExcerpt } from "../core/tail_buffer.ts";
import { packageCacheFailure } from "./npm_cache.ts";
import { type Credentials, describeHttpFailure, httpFailureOf } from "./http_status.ts";
import { describe } from "./error_text.ts";
import { ProtocolMismatchError } from "./protocol_era.ts";
import { remoteEndpoint } from "../config/url_credentials.ts";
import { authorizationRequired } from "./oauth_provider.ts";
import { credentialsOf } from "./oauth_session.ts";

/**
 * The start-timeout sentence: the allowance, the setting that sets it and
 * where to raise it, e.g. `did not answer initialize within 30s (startTimeout);
 * raise "startTimeout" in mcpServers.fs.mcpx, or in the top-level "pool" block
 * for every server`.
 */
export function startTimeoutText(spec: ServerSpec, allowance: StartAllowance): string {
  const what = allowance.bound === "firstStartTimeout"
    ? " of its first start, which includes a package runner such as npx downloading it"
    : "";
  return `did not answer initialize within ${formatDuration(allowance.ms)}${what} ` +
    `(${allowance.bound}); raise "${allowance.bound}" in mcpServers.${spec.name}.mcpx, ` +
    `or in the top-level "pool" block for every server`;
}

/**
 * The error a failed start is reported as: a {@link ServerError} with
 * {@link startFailureMessage}, the stderr tail, the timeout bound when a
 * time limit ended it, and the code `auth-required` when the server wants an
 * OAuth authorization (its cause, 5 deep, is an `AuthorizationRequiredError`)
 * so callers tell "run `mcpx auth`" from a broken server by the code.
 *
 * @param error What the start threw; kept as the cause.
 * @param stderr The server's stderr tail ("" for a remote).
 * @param credentials What the server's requests carried (engine/http_status.ts).
 */
export function startFailure(
  spec: ServerSpec,
  error: unknown,
  stderr: string,
  credentials?: Credentials,
): ServerError {
  return new ServerError(spec.name, startFailureMessage(spec, error, stderr, credentials), {
    cause: error,
    stderrTail: stderr,
    ...(error instanceof TimeoutError && error.bound ? { bound: error.bound } : {}),
    code: failureCode(error),
  });
}

/**
 * The {@link ServerError} code of a failure caused by `error`: `auth-required`
 * when an `AuthorizationRequiredError` is among its causes, else `server`.
 */
export function failureCode(error: unknown): ServerErrorCode {
  return authorizationRequired(error) ? "auth-required" : "server";
}

/**
 * The whole message of a failed start.
 *
 * @param error What the start threw (a `Deno.errors.NotFound` from spawning,
 *   the SDK's error, a `TimeoutError` carrying {@link startTimeoutText}).
 * @param stderr The server's stderr tail ("" for a remote).
 * @param credentials What the server's requests carried, for a 401's advice
 *   (engine/http_status.ts); default: its `auth` block's kind, else `headers`.
 * @returns `server "<name>"[ at <url>]: <reason>`, then the npm cache fix
 *   when one is recognised, then `stderr tail:` and its excerpt.
 */
export function startFailureMessage(
  spec: ServerSpec,
  error: unknown,
  stderr: string,
  credentials: Credentials = credentialsOf(spec),
): string {
  const tail = tailExcerpt(stderr);
  const cache = packageCacheFailure(stderr);
  const suffix = (cache ? `\n${cache.problem}: ${cache.fix}` : "") +
    (tail ? `\nstderr tail:\n${tail}` : "");
  if (error instanceof Deno.errors.NotFound) {
    if (spec.cwd && !isDirectory(spec.cwd)) {
      return `server "${spec.name}": its working directory ${spec.cwd} does not exist; create it or fix mcpServers.${spec.name}.cwd`;
    }
    return `server "${spec.name}": command "${spec.command}" was not found; install it or fix mcpServers.${spec.name}.command (PATH is searched)`;
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return `server "${spec.name}": command "${spec.command}" is not executable; check its permissions or fix mcpServers.${spec.name}.command`;
  }
  // Says the server, the revisions on each side and the fix already (engine/protocol_era.ts).
  if (error instanceof ProtocolMismatchError) return `${error.message}${suffix}`;
  // Names the server and the `mcpx auth` command that fixes it, never a bare 401.
  const unauthorized = authorizationRequired(error);
  if (unauthorized) return unauthorized.message;
  // The URL without its user information: mcpx sends that as a header and never prints it.
  const where = spec.transport === "stdio" ? "" : ` at ${withoutCredentials(spec.url!)}`;
  const http = spec.url ? httpFailureOf(error) : undefined;
  const reason = http
    ? describeHttpFailure(http, spec.name, undefined, credentials)
    : describe(error);
  const step = /^(exited|did not answer)/.test(reason) ? "" : "initialize: ";
  // A declared namespace's server is mcpx itself: its own `error:` line is the reason.
  const own = spec.derived && reason.startsWith("exited") ? ownError(stderr) : undefined;
  if (own) return `server "${spec.name}": ${own} (it ${reason})${suffix}`;
  return `server "${spec.name}"${where}: ${step}${reason}${suffix}`;
}

/**
 * The message of the last `error: …` line mcpx printed to `stderr` (its CLI's
 * error form, cli/command_line.ts): why a server derived from a declaration
 * (config/derived_servers.ts; `mcpx api serve`, `mcpx adapter serve`) could
 * not start, such as an unset variable its declaration names.
 */
function ownError(stderr: string): string | undefined {
  // deno-lint-ignore no-control-regex
  const lines = stderr.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const line = lines.findLast((l) => l.startsWith("error: "));
  return line?.slice("error: ".length).trim() || undefined;
}

function withoutCredentials(url: string): string {
  try {
    return remoteEndpoint(url, {}).url.href;
  } catch {
    return url;
  }
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
