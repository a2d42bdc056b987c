/**
 * `POST /v1/call/<namespace>/<tool>`: a tool call for curl and other plain
 * HTTP clients. The body is the tool's arguments, whole (a JSON object; an
 * empty body is `{}`); the caller's context comes from `X-Mcpx-…` headers
 * (wire/caller_headers.ts); the request then runs as the `call` route's body
 * `{ target: "<namespace>.<tool>", arguments, …caller }` would, leased as
 * `mcpx call` is. `X-Mcpx-Timeout-Ms` sets the caller's limit (the route's
 * `timeout`, in ms), and an error names that header as the limit that passed.
 *
 * @module
 */

import { UsageError } from "../core/errors.ts";
import { callerFromHeaders } from "../wire/caller_headers.ts";

/** The header that carries the call's `timeout`, in ms. */
export const TIMEOUT_HEADER = "x-mcpx-timeout-ms";

/**
 * The namespace and tool a `/v1/call/<namespace>/<tool>` path names, each
 * percent-decoded; undefined for any other path.
 */
export function callPathTarget(pathname: string): { namespace: string; tool: string } | undefined {
  const m = /^\/v1\/call\/([^/]+)\/([^/]+)$/.exec(pathname);
  if (!m) return undefined;
  try {
    return { namespace: decodeURIComponent(m[1]), tool: decodeURIComponent(m[2]) };
  } catch {
    throw new UsageError(`the path ${pathname} is not valid percent-encoding; nothing was run`);
  }
}

/**
 * The `call` route's body for a path call: the caller's headers, then the
 * path's namespace and tool and the body as the arguments (so neither a
 * header nor the body can name another tool).
 *
 * @param target What {@link callPathTarget} read.
 * @param headers The request's headers.
 * @param raw The body as parsed JSON (`{}` when empty).
 * @throws {UsageError} naming the header or the body when one cannot be read.
 */
export function callPathBody(
  target: { namespace: string; tool: string },
  headers: Headers,
  raw: unknown,
): Record<string, unknown> {
  let caller: Record<string, unknown>;
  try {
    caller = callerFromHeaders(headers);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; nothing was run`);
  }
  const timeout = headers.get(TIMEOUT_HEADER);
  if (timeout !== null && !/^\d+$/.test(timeout.trim())) {
    throw new UsageError(
      `header ${TIMEOUT_HEADER} must be a whole number of ms, got ${JSON.stringify(timeout)}; ` +
        `nothing was run`,
    );
  }
  return {
    ...caller,
    ...(timeout !== null ? { timeout: Number(timeout), timeoutSetting: "X-Mcpx-Timeout-Ms" } : {}),
    target: `${target.namespace}.${target.tool}`,
    arguments: raw,
  };
}
