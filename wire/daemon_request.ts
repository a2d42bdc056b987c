/**
 * One request to a daemon over its unix socket: `POST /v1/<operation>` with
 * a JSON body (wire/wire.ts speaks the protocol; daemon/http.ts serves it).
 *
 * Failures are told apart by whether the request could have reached a
 * daemon (decision 0007): {@link DaemonUnavailableError} only when nothing
 * was written, so a caller may start a daemon and send it again;
 * {@link DaemonLostError} once anything was written, never sent again.
 *
 * @module
 */

import {
  DaemonLostError,
  DaemonUnavailableError,
  McpxError,
  NotFoundError,
  ServerError,
  TimeoutError,
  UsageError,
} from "../core/errors.ts";
import {
  daemonLostMessage,
  encodeRequest,
  ExchangeFailure,
  exchangeRequest,
  UnsafeSocketDirectory,
  type WireErrorBody,
  type WireNotice,
  type WireNotification,
  type WireTrace,
} from "./wire.ts";
import { readAnswer } from "./answer.ts";
import { LiveNotes } from "./live_notes.ts";
import { UnsafeDirectoryError } from "../core/private_fs.ts";

export { VERSION_HEADER, type WireTrace } from "./wire.ts";

/** Options of {@link requestDaemon}. */
export interface RequestOptions {
  /** Give up after this long (ms); none when absent. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The caller's mcpx version; a daemon of another version refuses without running anything. */
  version?: string;
  /**
   * The daemon's pid, for the message of a lost connection: a number, or a
   * function asked only then (e.g. one that reads the daemon's record file).
   */
  daemonPid?: number | (() => number | undefined);
  /** Called with the instance that served a traced call (`trace: true` in `params`). */
  onTrace?: (trace: WireTrace) => void;
  /**
   * Called with each note the daemon says about this request, in order, as
   * soon as it is heard: while the request is open when `params` has
   * `live: true` (wire/live_notes.ts), else with the answer.
   */
  onNote?: (text: string) => void;
  /**
   * Called with each notification of the call's server (its progress and
   * log messages, for a call that carries a `notify` token), in the order
   * the server sent them and before this request resolves: while the
   * request is open when `params` has `live: true`, else with the answer
   * (decision 0078).
   */
  onNotification?: (notification: WireNotification) => void;
  /** Called with what a person's rendering of the result adds, when the daemon sent any. */
  onExtra?: (extra: Record<string, unknown>) => void;
  /** Called with what the daemon tells a caller that sent `notices: true` in `params`. */
  onNotices?: (notices: WireNotice[]) => void;
  /**
   * The bearer token a TCP endpoint requires (`transport.bearerToken`),
   * sent as `Authorization: Bearer`; never sent on a unix socket.
   */
  token?: string;
}

/**
 * Sends one operation and returns its result.
 *
 * @param socket The daemon's socket path, or an endpoint (`http://host:port`,
 *   `unix:///path`: wire/wire.ts `wireEndpoint`).
 * @param operation An operation name from ops/daemon_ops.ts.
 * @param params The operation's parameters (JSON).
 * @throws {DaemonUnavailableError} when the request provably never reached a
 *   daemon (no socket, connection refused, nothing written): safe to send again.
 * @throws {DaemonLostError} when the connection was lost after the request
 *   was written: the operation may have run; never send it again.
 * @throws {UnsafeDirectoryError} when the socket's directory is not the
 *   user's alone (wire/wire.ts `checkSocketDir`): nothing was sent, and no
 *   daemon should be started there either.
 * @throws {TimeoutError} when `timeoutMs` passed after the request was written.
 * @throws the daemon's own error (rebuilt as {@link McpxError} with its `code`)
 *   when the operation fails; the signal's reason when `signal` aborts.
 */
export async function requestDaemon<T = unknown>(
  socket: string,
  operation: string,
  params: Record<string, unknown>,
  options: RequestOptions = {},
): Promise<T> {
  const signals: AbortSignal[] = [];
  if (options.signal) signals.push(options.signal);
  const timeout = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
  if (timeout) signals.push(timeout);
  const request = encodeRequest(operation, JSON.stringify(params), options.version, {
    endpoint: socket,
    token: options.token,
  });
  const live = (options.onNote || options.onNotification) && params.live === true
    ? new LiveNotes(options.onNote ?? (() => {}), options.onNotification)
    : undefined;
  let response: { status: number; body: string };
  try {
    response = await exchangeRequest(
      socket,
      request,
      signals.length > 1 ? AbortSignal.any(signals) : signals[0],
      live ? (bytes) => live.push(bytes) : undefined,
    );
  } catch (error) {
    if (error instanceof UnsafeSocketDirectory) {
      throw new UnsafeDirectoryError(error.path, error.message, { cause: error });
    }
    if (error instanceof ExchangeFailure) {
      if (!error.sent) {
        throw new DaemonUnavailableError(`no daemon answers on ${socket} (${error.message})`, {
          cause: error,
        });
      }
      throw lost(socket, operation, params, options, error.message, error);
    }
    // The caller's own abort is the caller's to report.
    if (options.signal?.aborted || !timeout?.aborted) throw error;
    // Our timeout fired; whether the request was written is unknown, so it is not "unavailable".
    throw new TimeoutError(
      `the daemon on ${socket} did not answer "${operation}" within ${options.timeoutMs} ms`,
      options.timeoutMs!,
      { cause: error },
    );
  }
  const body = readAnswer(response.body);
  if (!body) {
    throw new McpxError(
      "daemon-protocol",
      `the daemon on ${socket} answered ${response.status} with a body that is not JSON ` +
        `{ ok, … }; \`mcpx stop\` then the command again starts a fresh daemon`,
    );
  }
  // The notes not heard while the answer streamed (all of them, when it did not).
  for (const note of body.notes?.slice(live?.heard ?? 0) ?? []) options.onNote?.(note);
  for (const n of body.notifications?.slice(live?.notificationsHeard ?? 0) ?? []) {
    options.onNotification?.(n);
  }
  if (body.trace) options.onTrace?.(body.trace);
  if (body.extra) options.onExtra?.(body.extra);
  if (body.notices?.length) options.onNotices?.(body.notices);
  if (body.ok) return body.result as T;
  throw fromWire(body.error!);
}

/** The {@link DaemonLostError} of a request written to `socket` whose answer never came. */
function lost(
  socket: string,
  operation: string,
  params: Record<string, unknown>,
  options: RequestOptions,
  reason: string,
  cause: unknown,
): DaemonLostError {
  const isCall = operation === "call" && typeof params.target === "string";
  const tool = isCall ? params.target as string : undefined;
  let pid: number | undefined;
  try {
    pid = typeof options.daemonPid === "function" ? options.daemonPid() : options.daemonPid;
  } catch { /* no record: the message names the socket instead */ }
  return new DaemonLostError(
    { operation, socket, ...(pid !== undefined ? { pid } : {}), ...(tool ? { tool } : {}) },
    daemonLostMessage({ what: tool ?? operation, pid, socket, reason, isCall }),
    { cause },
  );
}

/**
 * The typed error of a failed answer's body (wire/wire.ts `WireErrorBody`),
 * built from its code and fields: `usage` is a {@link UsageError} (exit code
 * 2), `not-found` keeps its suggestions, `timeout` its `ms`, `bound` and
 * `setting`, `server` (and `auth-required`, a server failure of that kind) its
 * stderr tail and bound; any other code is an
 * {@link McpxError} with that code.
 */
export function fromWire(error: WireErrorBody): McpxError {
  switch (error.code) {
    case "usage":
      return new UsageError(error.message);
    case "not-found":
      return new NotFoundError(
        error.message,
        error.suggestions ?? [],
        error.namespace !== undefined ? { namespace: error.namespace } : undefined,
      );
    case "server":
    case "auth-required":
      return new ServerError("", error.message, {
        stderrTail: error.stderrTail,
        bound: error.bound,
        code: error.code,
      });
    case "timeout":
      return new TimeoutError(error.message, error.ms ?? 0, {
        ...(error.bound ? { bound: error.bound } : {}),
        ...(error.setting ? { setting: error.setting } : {}),
      });
    default:
      return new McpxError(error.code, error.message);
  }
}

/**
 * The error for a request that never reached the daemon `daemon.endpoint`
 * names: the endpoint, the setting and its variable, and that nothing local
 * stands in for it (spec 000, "One daemon, many clients": a named endpoint
 * stops the ladder).
 *
 * @param endpoint The endpoint as configured.
 * @param error What the connection attempt said.
 */
export function endpointUnavailable(endpoint: string, error: Error): DaemonUnavailableError {
  return new DaemonUnavailableError(
    `no mcpx daemon answers at ${endpoint}, the endpoint daemon.endpoint ` +
      `(MCPX_DAEMON_ENDPOINT) names (${error.message}); nothing was sent, and with an ` +
      `endpoint set mcpx neither starts nor falls back to a local daemon. Start the daemon ` +
      `there (mcpx daemon --port …), or unset the setting to use a daemon on this machine`,
    { cause: error },
  );
}
