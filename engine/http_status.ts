/**
 * The HTTP status a remote MCP server answered with, read from the SDK's
 * errors as data (`SdkHttpError.status`, `SseError.code`,
 * `UnauthorizedError`), and the sentence mcpx prints for it: the status, the
 * URL and what to check.
 *
 * @module
 */

import type { AuthType } from "../config/auth.ts";
import { SdkHttpError, SseError, UnauthorizedError } from "@modelcontextprotocol/client";

/** An HTTP answer that failed a request to a remote server. */
export interface HttpFailure {
  /** The status code, 100–599. */
  status: number;
  /** The reason phrase the server sent, when known. */
  statusText?: string;
  /** The start of the response body, when the SDK kept it. */
  body?: string;
  /**
   * True for a 401 that is not OAuth's ({@link NotOAuthChallengeError}): the
   * request carried no token and the answer asked for none.
   */
  notOAuth?: boolean;
}

/**
 * What a remote server's requests carry to authorize them, which a 401 or
 * 403 is about (decision 0042, "Which 401 is OAuth's"): `oauth`, the tokens
 * `mcpx auth` stored, renewed with `command`; `auth`, an `auth` block of
 * another kind; `headers`, what `headers` or the URL's user information
 * give (possibly nothing).
 */
export type Credentials =
  | { kind: "oauth"; command: string }
  | { kind: "auth"; type: AuthType }
  | { kind: "headers" };

/**
 * A 401 that is not OAuth's: the request carried no token and the server's
 * answer has no `Bearer` challenge (a key it refused, a proxy). Thrown by the
 * OAuth provider (engine/oauth_session.ts) so that it is reported as the HTTP
 * failure it is, never as `mcpx auth`.
 */
export class NotOAuthChallengeError extends UnauthorizedError {
  constructor() {
    super("the server answered 401 without a Bearer challenge");
    this.name = "NotOAuthChallengeError";
  }
}

/** Reason phrases of the statuses remote servers commonly answer with (RFC 9110, section 15). */
const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  410: "Gone",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/**
 * The HTTP failure behind `error` (itself or a `cause`, up to 5 deep), or
 * undefined when none is known.
 */
export function httpFailureOf(error: unknown): HttpFailure | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof SdkHttpError && validStatus(current.status)) {
      const text = current.data.text;
      return {
        status: current.status,
        ...(current.statusText ? { statusText: current.statusText } : {}),
        ...(typeof text === "string" && text.trim() ? { body: text } : {}),
      };
    }
    if (current instanceof SseError && validStatus(current.code)) {
      return { status: current.code! };
    }
    if (current instanceof UnauthorizedError) {
      return {
        status: 401,
        ...(current instanceof NotOAuthChallengeError ? { notOAuth: true } : {}),
      };
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

function validStatus(status: number | undefined): boolean {
  return typeof status === "number" && Number.isInteger(status) && status >= 100 && status <= 599;
}

/**
 * One sentence for an HTTP failure: `HTTP 404 Not Found[ from <url>]: <body>;
 * <what to check>`.
 *
 * @param server The `mcpServers` key, for the configuration path to check.
 * @param url The server's URL (its secrets are replaced where the message
 *   leaves the daemon, core/redact.ts); leave it out when the sentence
 *   follows one that names it.
 * @param credentials What the server's requests carry ({@link Credentials}):
 *   a refusal points at the `auth` block, at `mcpx auth <server>` for OAuth,
 *   or at `headers`; default `headers`.
 */
export function describeHttpFailure(
  failure: HttpFailure,
  server: string,
  url?: string,
  credentials: Credentials = { kind: "headers" },
): string {
  const { status } = failure;
  const reason = failure.statusText || REASONS[status] || "";
  const body = failure.body?.trim().split("\n")[0].slice(0, 200);
  const head = `HTTP ${status}${reason ? ` ${reason}` : ""}${url ? ` from ${url}` : ""}${
    body ? `: ${body}` : ""
  }`;
  if ((status === 401 || status === 403) && credentials.kind === "auth") {
    return `${head}; the server refused the credentials: check mcpServers.${server}.auth ` +
      `(its "${credentials.type}" credentials) and the variable it names`;
  }
  if ((status === 401 || status === 403) && credentials.kind === "oauth" && !failure.notOAuth) {
    return `${head}; the server refused mcpx's OAuth authorization: run \`${credentials.command}\` ` +
      `to authorize it again`;
  }
  if (status === 401 || status === 403) {
    return `${head}; the server refused the credentials: check mcpServers.${server}.headers ` +
      `(e.g. Authorization) and the token it holds`;
  }
  if (status === 404 || status === 405 || status === 410) {
    return `${head}; no MCP endpoint answers there: check mcpServers.${server}.url ` +
      `(often …/mcp, or …/sse with "transport": "sse")`;
  }
  if (status >= 500) return `${head}; the server failed: check it, or try again later`;
  return head;
}
