/**
 * What every mcpx HTTP listener on TCP checks before it runs anything (the
 * daemon's `/v1` listener, daemon/http_tcp.ts, and `mcpx serve --http`):
 * the request's Host and Origin name this listener (wire/http_origin.ts,
 * against DNS rebinding), and, when the listener has a bearer token, the
 * request carries it (wire/bearer_token.ts, constant time). One rule, so the
 * two listeners cannot drift apart; each renders the refusal in its own
 * protocol's shape.
 *
 * @module
 */

import { type ListenerHosts, rebindingRefusal } from "./http_origin.ts";
import { BEARER_TOKEN_SETTING, BEARER_TOKEN_VARIABLE, bearerMatches } from "./bearer_token.ts";

/** Why a request is refused: its HTTP status, an error code and a sentence naming the fix. */
export interface ListenerRefusal {
  /** 403 for a Host or Origin this listener does not answer to, 401 for a missing or wrong token. */
  status: 401 | 403;
  /** `forbidden-host` or `unauthorized`. */
  code: "forbidden-host" | "unauthorized";
  message: string;
  /** Headers the refusal carries (`WWW-Authenticate` on a 401, RFC 6750 §3). */
  headers: Record<string, string>;
}

/**
 * The refusal of `request`, or undefined when it may proceed.
 *
 * @param request The incoming request.
 * @param hosts Where the listener is bound (its port the one it got, not 0).
 * @param token The bearer token the listener requires; undefined or empty: none.
 * @param what What the listener is, for the message (`this daemon`, `mcpx serve`).
 */
export function listenerRefusal(
  request: Request,
  hosts: ListenerHosts,
  token: string | undefined,
  what: string,
): ListenerRefusal | undefined {
  const refusal = rebindingRefusal(request.headers, hosts);
  if (refusal) {
    return {
      status: 403,
      code: "forbidden-host",
      message: `${refusal}; nothing was run`,
      headers: {},
    };
  }
  if (token && !bearerMatches(request.headers.get("authorization"), token)) {
    return {
      status: 401,
      code: "unauthorized",
      message: `${what} requires "Authorization: Bearer <token>" with the token set as ` +
        `${BEARER_TOKEN_SETTING} where it runs (${BEARER_TOKEN_VARIABLE}); the request ` +
        `${request.headers.has("authorization") ? "carried another one" : "carried none"}, ` +
        "so nothing was run",
      headers: { "www-authenticate": 'Bearer realm="mcpx"' },
    };
  }
  return undefined;
}
