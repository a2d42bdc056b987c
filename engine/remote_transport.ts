/**
 * The transports to a remote server (Streamable HTTP, and the legacy
 * HTTP+SSE), and the two facts about a failed request they record as data
 * for the instance to act on: the server no longer knows our session
 * ({@linkcode SessionNotFoundError}), or the request got no HTTP answer at
 * all ({@linkcode isConnectionFailure}). Neither is ever read from an
 * error's text.
 *
 * @module
 */

import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
  type TransportSendOptions,
} from "@modelcontextprotocol/client";
import type { ServerSpec } from "../config/types.ts";
import { remoteEndpoint } from "../config/url_credentials.ts";
import { authHeaders, authUrl } from "../config/auth.ts";
import { authorizationFailure, bearerRecordingFetch, oauthAuthProvider } from "./oauth_session.ts";
import type { OAuthTarget } from "./oauth_target.ts";
import { onOwnStream } from "./question_tie.ts";

/**
 * The HTTP statuses that answer a request carrying an `Mcp-Session-Id` the
 * server does not know. 404 is the specification's (MCP 2025-06-18,
 * Streamable HTTP, "Session Management": a server that ended a session
 * answers requests bearing its id with 404, and the client must start a new
 * session); 400 is what the SDK's example servers and
 * `@modelcontextprotocol/server-everything` answer instead ("Bad Request: No
 * valid session ID provided"). Either way the request was refused before it
 * ran, so running it again on a new session is safe.
 */
export const SESSION_NOT_FOUND_STATUSES: readonly number[] = [404, 400];

/**
 * A Streamable HTTP request that carried `Mcp-Session-Id` was answered with
 * one of {@linkcode SESSION_NOT_FOUND_STATUSES}: the server no longer knows
 * the session (it restarted, or expired it). Thrown by the transport's
 * `send` in place of the SDK's `SdkHttpError`, which is its `cause`; the
 * message is the SDK's.
 */
export class SessionNotFoundError extends Error {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The session id the request carried. */
  readonly sessionId: string;
  constructor(cause: SdkHttpError, sessionId: string) {
    super(cause.message, { cause });
    this.name = "SessionNotFoundError";
    this.status = cause.status;
    this.sessionId = sessionId;
  }
}

/** Errors a remote transport's `fetch` rejected with (no HTTP answer): see {@linkcode isConnectionFailure}. */
const fetchFailures = new WeakSet<object>();

/**
 * `fetch` that records its own rejections (connection refused or reset, DNS,
 * TLS: the Fetch standard's network error) in {@link fetchFailures}, unless
 * the request was aborted on purpose. The error itself passes unchanged, so
 * every message stays the SDK's and the runtime's.
 */
const recordingFetch: typeof fetch = (input, init) =>
  fetch(input, init).catch((error: unknown) => {
    if (!init?.signal?.aborted && typeof error === "object" && error !== null) {
      fetchFailures.add(error);
    }
    throw error;
  });

/**
 * Whether a remote request failed at the transport, so its connection is not
 * reused: the request's `fetch` got no HTTP answer (recorded by the
 * transport as it happened), or the SDK failed it because the connection
 * closed (`SdkErrorCode.ConnectionClosed`). Looks through `cause`, up to 5 deep.
 */
export function isConnectionFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    if (fetchFailures.has(current)) return true;
    if (current instanceof SdkError && current.code === SdkErrorCode.ConnectionClosed) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}

/**
 * The transport for a remote server: Streamable HTTP, or HTTP+SSE when
 * `spec.transport` is `sse`. The `auth` block's header or query parameter
 * is added (config/auth.ts); credentials in the URL become an explicit
 * header, never fetch's own, unless a configured or `auth` `Authorization`
 * header wins over them (config/url_credentials.ts). With `oauth`, each
 * request carries the stored bearer token and a 401 refreshes it or fails
 * naming `mcpx auth <server>` (engine/oauth_session.ts).
 */
export function remoteTransport(
  spec: ServerSpec,
  oauth?: OAuthTarget,
  resume?: RemoteSession,
): Transport {
  const { url, headers } = remoteEndpoint(authUrl(spec.url!, spec.auth), {
    ...spec.headers,
    ...authHeaders(spec.auth),
  });
  const requestInit = { headers };
  const authProvider = oauth ? oauthAuthProvider(oauth) : undefined;
  // With OAuth, each 401 is matched with the token its request carried (engine/oauth_session.ts).
  const fetchFn = oauth ? bearerRecordingFetch(recordingFetch) : recordingFetch;
  if (spec.transport === "sse") {
    return new SSEClientTransport(url, { requestInit, fetch: fetchFn, authProvider });
  }
  const transport = new CancellableHTTPClientTransport(url, {
    requestInit,
    fetch: fetchFn,
    authProvider,
    // A session a previous daemon opened (`mcpx daemon upgrade`): no new `initialize`.
    ...(resume ? { sessionId: resume.sessionId, protocolVersion: resume.protocolVersion } : {}),
  });
  transport.oauth = oauth;
  return transport;
}

/** A Streamable HTTP session to resume: its `Mcp-Session-Id` and the revision agreed. */
export interface RemoteSession {
  sessionId: string;
  protocolVersion?: string;
}

/**
 * Streamable HTTP whose POST of a request is aborted when that request is
 * cancelled (a timeout or the caller's signal), so a server that accepted the
 * call and never answers sees its connection close (spec 000, "Cancellation
 * reaches the transport"). The SDK does this itself only on 2026-era
 * connections (`requestSignal`); on a 2025-era one it sends
 * `notifications/cancelled` and leaves the POST open until the instance closes.
 *
 * A POST that carried the session id and was answered as in
 * {@linkcode SESSION_NOT_FOUND_STATUSES} fails with {@linkcode SessionNotFoundError}.
 *
 * A request's POST is sent so that a question the server asks on its
 * response stream names the call that sent it (engine/question_tie.ts;
 * decision 0075).
 */
export class CancellableHTTPClientTransport extends StreamableHTTPClientTransport {
  /** Requests of ours awaiting their response, by JSON-RPC id. */
  #inFlight = new Map<string | number, AbortController>();
  /** Where its OAuth tokens are, when it has any: a 403 `insufficient_scope` is said in its terms. */
  oauth?: OAuthTarget;

  constructor(...args: ConstructorParameters<typeof StreamableHTTPClientTransport>) {
    super(...args);
    // The SDK's Protocol.connect chains its own handler after this one.
    this.onmessage = (message) => {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        if (message.id !== undefined) this.#inFlight.delete(message.id);
      }
    };
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // The SDK sends the session id on every POST but `initialize` (which starts one).
    const sessionId = isInitializeRequest(message) ? undefined : this.sessionId;
    try {
      return await onOwnStream(isJSONRPCRequest(message), () => this.#send(message, options));
    } catch (error) {
      if (
        sessionId !== undefined && error instanceof SdkHttpError &&
        SESSION_NOT_FOUND_STATUSES.includes(error.status)
      ) {
        throw new SessionNotFoundError(error, sessionId);
      }
      throw this.oauth ? await authorizationFailure(error, this.oauth) : error;
    }
  }

  async #send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (options?.requestSignal === undefined && isJSONRPCRequest(message)) {
      const controller = new AbortController();
      this.#inFlight.set(message.id, controller);
      try {
        return await super.send(message, { ...options, requestSignal: controller.signal });
      } catch (error) {
        this.#inFlight.delete(message.id);
        throw error;
      }
    }
    if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined) {
        this.#inFlight.get(id)?.abort();
        this.#inFlight.delete(id);
      }
    }
    return await super.send(message, options);
  }
}
