/**
 * What a failed request to a server (a tool call, a prompt, a resource, a
 * page of a listing) is reported as: the SDK's own timeout as a
 * {@link TimeoutError} naming `callTimeout`; a remote that forgot the
 * connection's session as a {@link SessionLostError} (the request did not
 * run, so it may be sent again on a fresh connection); anything else as a
 * {@link ServerError} with the remote's HTTP status, or the stdio server's
 * exit and stderr tail (code `auth-required` when the server wants a person
 * to authorize mcpx again). An instance whose connection failed is closed, so it
 * is not leased again.
 *
 * @module
 */

import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import type { ServerSpec } from "../config/types.ts";
import { ServerError, TimeoutError } from "../core/errors.ts";
import { tailExcerpt } from "../core/tail_buffer.ts";
import { type Credentials, describeHttpFailure, httpFailureOf } from "./http_status.ts";
import { describe } from "./error_text.ts";
import { timedOutText } from "./lease_errors.ts";
import { isConnectionFailure, SessionNotFoundError } from "./remote_transport.ts";
import { authorizationRequired } from "./oauth_provider.ts";
import { credentialsOf } from "./oauth_session.ts";

/**
 * A remote server rejected a call because it no longer knows the session the
 * request carried (engine/remote_transport.ts `SessionNotFoundError`: MCP
 * 2025-06-18, Streamable HTTP "Session Management", 404 for an unknown
 * session id; some servers answer 400). The call did not run; the instance
 * is closed, and retrying on a new one is safe.
 */
export class SessionLostError extends ServerError {
  constructor(server: string, message: string, options?: ErrorOptions) {
    super(server, message, options);
    this.name = "SessionLostError";
  }
}

/** What {@link requestFailure} reads and changes of the instance the request failed on. */
export interface FailedOn {
  readonly spec: ServerSpec;
  readonly closed: boolean;
  readonly exit?: { reason: string; code?: number | null; signal?: string | null };
  readonly stderrTail: string;
  /** What its requests carry to authorize them, for a 401's advice (engine/http_status.ts). */
  readonly credentials?: Credentials;
  /** Set to what the caller is told. */
  lastError?: string;
  close(reason: "crash"): Promise<void>;
  /** Resolves once a closed stdio child's exit status is known, or after `ms`. */
  exitSettled(ms?: number): Promise<void>;
}

/**
 * The error to throw for `error`, which a request on `instance` failed with.
 *
 * @param what What the request was (`ns.tool`, `ns prompts/get`): begins the message.
 * @param timeoutMs The limit the request had (ms), named when the SDK's timer passed it.
 * @param signal The caller's signal: its abort is the caller's, not a timeout.
 * @returns A {@link TimeoutError}, {@link SessionLostError} or {@link ServerError}.
 */
export async function requestFailure(
  instance: FailedOn,
  what: string,
  error: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Error> {
  const { spec } = instance;
  const message = describe(error);
  // What the caller reads: a remote's HTTP status and URL when it answered with one.
  const http = spec.url ? httpFailureOf(error) : undefined;
  const credentials = instance.credentials ?? credentialsOf(spec);
  const shown = http ? describeHttpFailure(http, spec.name, spec.url, credentials) : message;
  // The caller's own cancellation is no fault of the server's: its last error stays as it was.
  if (!signal?.aborted) instance.lastError = shown;
  // The SDK's own timer passed (the caller's signal fails a request with the same code).
  if (
    error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout && !signal?.aborted
  ) {
    return new TimeoutError(
      timedOutText(what, timeoutMs, "callTimeout"),
      timeoutMs,
      { cause: error },
    );
  }
  if (spec.transport !== "stdio" && !instance.closed) {
    if (error instanceof SessionNotFoundError) {
      // The remote forgot our session (it restarted): the request was not
      // run, so the caller may retry on a fresh connection.
      await instance.close("crash");
      return new SessionLostError(
        spec.name,
        `${what}: the server no longer knows this connection's session (${message})`,
        { cause: error },
      );
    }
    // A connection that failed at the transport is not reused.
    if (isConnectionFailure(error)) await instance.close("crash");
  }
  // The tokens stopped working mid-session and no refresh helped: a person
  // authorizes again; the code says so (core/errors.ts `ServerError`).
  const unauthorized = authorizationRequired(error);
  if (unauthorized) {
    return new ServerError(spec.name, `${what}: ${unauthorized.message}`, {
      cause: error,
      code: "auth-required",
    });
  }
  // The exit status arrives a moment after the pipe closes.
  if (instance.closed) await instance.exitSettled(1000);
  const exit = !instance.exit
    ? ""
    : spec.transport === "stdio"
    ? `; the server exited (${exitText(instance.exit)})`
    : "; the connection was closed";
  const tail = tailExcerpt(instance.stderrTail);
  return new ServerError(
    spec.name,
    `${what}: ${shown}${exit}${tail ? `\nstderr tail:\n${tail}` : ""}`,
    { cause: error, stderrTail: instance.stderrTail },
  );
}

function exitText(exit: NonNullable<FailedOn["exit"]>): string {
  if (exit.signal) return `signal ${exit.signal}`;
  if (exit.code !== undefined && exit.code !== null) return `exit code ${exit.code}`;
  return exit.reason;
}
