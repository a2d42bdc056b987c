/**
 * One request to a daemon over its unix socket: `POST /v1/<operation>` with
 * a JSON body (see daemon/http.ts for the wire shape).
 *
 * @module
 */

import {
  DaemonUnavailableError,
  McpxError,
  NotFoundError,
  ServerError,
  TimeoutError,
} from "../errors.ts";

const clients = new Map<string, Deno.HttpClient>();

function clientFor(socket: string): Deno.HttpClient {
  let client = clients.get(socket);
  if (!client) {
    client = Deno.createHttpClient({ proxy: { transport: "unix", path: socket } });
    clients.set(socket, client);
  }
  return client;
}

/**
 * Sends one operation and returns its result.
 *
 * @param socket The daemon's socket path.
 * @param operation An operation name from daemon/operations.ts.
 * @param timeoutMs Abort the request after this long (ms); none when absent.
 * @throws {DaemonUnavailableError} when nothing answers on the socket;
 *   the daemon's own error (rebuilt as {@link McpxError} with its `code`)
 *   when the operation fails.
 */
export async function requestDaemon<T = unknown>(
  socket: string,
  operation: string,
  params: Record<string, unknown>,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const signals: AbortSignal[] = [];
  if (options.signal) signals.push(options.signal);
  if (options.timeoutMs) signals.push(AbortSignal.timeout(options.timeoutMs));
  let response: Response;
  try {
    response = await fetch(`http://mcpx/v1/${operation}`, {
      method: "POST",
      body: JSON.stringify(params),
      headers: { "content-type": "application/json" },
      client: clientFor(socket),
      signal: signals.length ? AbortSignal.any(signals) : undefined,
    });
  } catch (error) {
    throw new DaemonUnavailableError(`no daemon answers on ${socket}`, { cause: error });
  }
  let body: { ok: boolean; result?: T; error?: WireErrorBody };
  try {
    body = await response.json();
  } catch (error) {
    throw new DaemonUnavailableError(
      `the daemon on ${socket} answered ${response.status} with a body that is not JSON`,
      { cause: error },
    );
  }
  if (body.ok) return body.result as T;
  throw fromWire(
    body.error ?? { code: "internal", message: "the daemon failed without a message" },
  );
}

interface WireErrorBody {
  code: string;
  message: string;
  suggestions?: string[];
  stderrTail?: string;
}

function fromWire(error: WireErrorBody): McpxError {
  switch (error.code) {
    case "not-found":
      return new NotFoundError(error.message, error.suggestions ?? []);
    case "server":
      return new ServerError("", error.message, { stderrTail: error.stderrTail });
    case "timeout":
      return new TimeoutError(error.message, 0);
    default:
      return new McpxError(error.code, error.message);
  }
}
