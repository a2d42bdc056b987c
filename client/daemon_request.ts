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
  type TimeoutBound,
  TimeoutError,
} from "../errors.ts";

/**
 * The request header naming the caller's mcpx version; a daemon of another
 * version answers `version-mismatch` without running the operation.
 */
export const VERSION_HEADER = "x-mcpx-version";

/**
 * One HTTP/1.1 exchange on a fresh unix-socket connection (`connection:
 * close`, read to EOF). The daemon is the only peer, so this is all of HTTP
 * the client needs; it costs ~1 ms where `fetch` with a unix-socket client
 * costs ~11 ms on its first use in a process (measured), which is most of
 * the budget of a warm `mcpx call`.
 */
async function exchange(
  socket: string,
  path: string,
  body: string,
  signal?: AbortSignal,
  version?: string,
): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ transport: "unix", path: socket });
  const onAbort = () => conn.close();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const payload = new TextEncoder().encode(body);
    const head = `POST ${path} HTTP/1.1\r\nhost: mcpx\r\ncontent-type: application/json\r\n` +
      (version ? `${VERSION_HEADER}: ${version}\r\n` : "") +
      `content-length: ${payload.length}\r\nconnection: close\r\n\r\n`;
    const request = new Uint8Array(head.length + payload.length);
    request.set(new TextEncoder().encode(head));
    request.set(payload, head.length);
    for (let written = 0; written < request.length;) {
      written += await conn.write(request.subarray(written));
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    const buffer = new Uint8Array(64 * 1024);
    while (true) {
      const n = await conn.read(buffer);
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
      total += n;
    }
    const bytes = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return parseResponse(new TextDecoder().decode(bytes));
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    try {
      conn.close();
    } catch { /* closed by abort */ }
  }
}

/** Splits a whole HTTP/1.1 response into status and body (chunked bodies decoded). */
export function parseResponse(text: string): { status: number; body: string } {
  const split = text.indexOf("\r\n\r\n");
  if (split < 0) throw new Error("the daemon closed the connection before a full response");
  const head = text.slice(0, split).split("\r\n");
  const status = Number(head[0].split(" ")[1]);
  let body = text.slice(split + 4);
  if (head.some((h) => /^transfer-encoding:\s*chunked/i.test(h))) {
    let decoded = "";
    let rest = body;
    while (true) {
      const line = rest.indexOf("\r\n");
      const size = parseInt(rest.slice(0, line), 16);
      if (!size) break;
      // Sizes count bytes; slice by bytes so multi-byte characters stay whole.
      const bytes = new TextEncoder().encode(rest.slice(line + 2));
      decoded += new TextDecoder().decode(bytes.subarray(0, size));
      rest = new TextDecoder().decode(bytes.subarray(size + 2));
    }
    body = decoded;
  }
  return { status, body };
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
  options: { timeoutMs?: number; signal?: AbortSignal; version?: string } = {},
): Promise<T> {
  const signals: AbortSignal[] = [];
  if (options.signal) signals.push(options.signal);
  if (options.timeoutMs) signals.push(AbortSignal.timeout(options.timeoutMs));
  let response: { status: number; body: string };
  try {
    response = await exchange(
      socket,
      `/v1/${operation}`,
      JSON.stringify(params),
      signals.length ? AbortSignal.any(signals) : undefined,
      options.version,
    );
  } catch (error) {
    throw new DaemonUnavailableError(`no daemon answers on ${socket}`, { cause: error });
  }
  let body: { ok: boolean; result?: T; error?: WireErrorBody };
  try {
    body = JSON.parse(response.body);
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
  ms?: number;
  bound?: TimeoutBound;
  setting?: string;
}

function fromWire(error: WireErrorBody): McpxError {
  switch (error.code) {
    case "not-found":
      return new NotFoundError(error.message, error.suggestions ?? []);
    case "server":
      return new ServerError("", error.message, { stderrTail: error.stderrTail });
    case "timeout":
      return new TimeoutError(error.message, error.ms ?? 0, {
        ...(error.bound ? { bound: error.bound } : {}),
        ...(error.setting ? { setting: error.setting } : {}),
      });
    default:
      return new McpxError(error.code, error.message);
  }
}
