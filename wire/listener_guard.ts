/**
 * What every mcpx HTTP listener on TCP checks before it runs anything (the
 * daemon's `/v1` listener, daemon/http_tcp.ts, and `mcpx serve --http`),
 * in this order (decisions 0046 and 0058):
 *
 * 1. `Host` names this listener (wire/http_origin.ts, against DNS
 *    rebinding): 403 `forbidden-host`.
 * 2. An `Origin`, when sent (browsers send one; curl, SDKs and mcpx do not),
 *    is the listener's own or one `transport.allowedOrigins` names: 403
 *    `forbidden-origin`. A page on another `localhost` port is refused.
 * 3. When the listener has a bearer token, the request carries it
 *    (wire/bearer_token.ts, constant time): 401 `unauthorized`.
 * 4. A request that changes state (a `POST`, `PUT` or `PATCH`, or any that
 *    carries a body) declares `Content-Type: application/json`: 415
 *    `unsupported-media-type`. No browser can send that cross-site without a
 *    CORS preflight, and the preflight is answered only for an admitted origin.
 * 5. Its declared `Content-Length` is within the body limit
 *    (wire/body_limit.ts): 413 `body-too-large`, before a byte is read.
 *
 * One rule, so the two listeners cannot drift apart; each renders the
 * refusal in its own protocol's shape.
 *
 * @module
 */

import { hostRefusal, type ListenerHosts, originRefusal } from "./http_origin.ts";
import { BEARER_TOKEN_SETTING, BEARER_TOKEN_VARIABLE, bearerMatches } from "./bearer_token.ts";
import { declaredBodyRefusal } from "./body_limit.ts";

/** Why a request is refused: its HTTP status, an error code and a sentence naming the fix. */
export interface ListenerRefusal {
  /** 403 Host or Origin, 401 token, 413 body too large, 415 not JSON. */
  status: 401 | 403 | 413 | 415;
  code:
    | "forbidden-host"
    | "forbidden-origin"
    | "unauthorized"
    | "body-too-large"
    | "unsupported-media-type";
  message: string;
  /** Headers the refusal carries (`WWW-Authenticate` on a 401, RFC 6750 §3). */
  headers: Record<string, string>;
}

/** What a listener requires of a request. */
export interface ListenerGuard {
  /** Where the listener is bound (its port the one it got, not 0) and the names and origins it admits. */
  hosts: ListenerHosts;
  /** The bearer token the listener requires; undefined or empty: none. */
  token?: string;
  /** What the listener is, for the message (`this daemon`, `mcpx serve`). */
  what: string;
  /** The most bytes of a request body (wire/body_limit.ts `bodyLimit`); undefined: unchecked here. */
  maxBodyBytes?: number;
}

/** Methods that change nothing and carry no body: exempt from the content type rule. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether `request` carries a body or is a method that changes state by its body. */
function wantsJson(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (["POST", "PUT", "PATCH"].includes(request.method)) return true;
  const length = request.headers.get("content-length");
  return request.headers.has("transfer-encoding") || (length !== null && length.trim() !== "0");
}

/** `application/json; charset=utf-8` → `application/json`. */
function mediaType(value: string | null): string {
  return (value ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * The refusal of `request`, or undefined when it may proceed (the module's rule).
 *
 * @param request The incoming request; its body is not read.
 * @param guard What the listener requires.
 */
export function listenerRefusal(
  request: Request,
  guard: ListenerGuard,
): ListenerRefusal | undefined {
  const forbidden = (code: "forbidden-host" | "forbidden-origin", why: string) => ({
    status: 403 as const,
    code,
    message: `${why}; nothing was run`,
    headers: {},
  });
  const host = hostRefusal(request.headers, guard.hosts);
  if (host) return forbidden("forbidden-host", host);
  const origin = originRefusal(request.headers, guard.hosts);
  if (origin) return forbidden("forbidden-origin", origin);
  // A preflight carries no credentials (Fetch, "CORS-preflight request") and runs nothing.
  if (
    guard.token && request.method !== "OPTIONS" &&
    !bearerMatches(request.headers.get("authorization"), guard.token)
  ) {
    return {
      status: 401,
      code: "unauthorized",
      message: `${guard.what} requires "Authorization: Bearer <token>" with the token set as ` +
        `${BEARER_TOKEN_SETTING} where it runs (${BEARER_TOKEN_VARIABLE}); the request ` +
        `${request.headers.has("authorization") ? "carried another one" : "carried none"}, ` +
        "so nothing was run",
      headers: { "www-authenticate": 'Bearer realm="mcpx"' },
    };
  }
  const type = request.headers.get("content-type");
  if (wantsJson(request) && mediaType(type) !== "application/json") {
    return {
      status: 415,
      code: "unsupported-media-type",
      message: `${guard.what} takes a ${request.method} body only as ` +
        `"Content-Type: application/json", and this one ` +
        `${type === null ? "declared none" : `declared ${JSON.stringify(type)}`}; nothing was ` +
        `run (with curl: -H 'Content-Type: application/json', or --json)`,
      headers: { accept: "application/json" },
    };
  }
  if (guard.maxBodyBytes !== undefined) {
    const large = declaredBodyRefusal(request.headers, guard.maxBodyBytes);
    if (large) {
      return { status: 413, code: "body-too-large", message: large.message, headers: {} };
    }
  }
  return undefined;
}

/**
 * The CORS answer for a request whose `Origin` the listener admits by
 * `transport.allowedOrigins` (its own origin needs none): a preflight
 * (`OPTIONS`) is answered 204 with what it may send; any other request gets
 * `Access-Control-Allow-Origin` added to its response. Call it after
 * {@link listenerRefusal} passed, with `respond` the listener's handler.
 *
 * @param exposed Response headers a page may read (`Mcp-Session-Id`).
 */
export async function withCors(
  request: Request,
  guard: ListenerGuard,
  respond: (request: Request) => Promise<Response>,
  exposed: readonly string[] = [],
): Promise<Response> {
  const origin = request.headers.get("origin");
  const cross = origin !== null &&
    originRefusal(request.headers, { ...guard.hosts, allowedOrigins: [] }) !== undefined;
  if (!cross) return await respond(request);
  const cors: Record<string, string> = {
    "access-control-allow-origin": origin,
    vary: "Origin",
    ...(exposed.length ? { "access-control-expose-headers": exposed.join(", ") } : {}),
  };
  if (request.method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: {
        ...cors,
        "access-control-allow-methods": "GET, POST, DELETE",
        "access-control-allow-headers": request.headers.get("access-control-request-headers") ??
          "content-type",
        "access-control-max-age": "600",
      },
    });
  }
  const response = await respond(request);
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(cors)) headers.set(name, value);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
