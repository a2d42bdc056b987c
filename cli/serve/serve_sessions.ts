/**
 * The 2025-era half of `mcpx serve --http`'s endpoint: one sessionful
 * Streamable HTTP transport, and one server, per `Mcp-Session-Id`, bounded
 * twice (issue 24, "Bodies, sessions, headers"; decision 0058):
 *
 * - a session with no request for `serve.sessionIdleTimeout` (default 30
 *   min) ends, as a `DELETE` would end it; its next request is answered 404
 *   with "expired", which tells an MCP client to begin a new session (MCP
 *   2025-11-25, "Transports", "Session Management");
 * - at most `serve.maxSessions` (default 1,000) are open at once, those being
 *   initialized counted; one more `initialize` is refused with 503 and a
 *   JSON-RPC error naming the cap and the setting, and costs nothing kept.
 *
 * Without them 4,000 sessions took serve from 112 to 520 MB, for good.
 *
 * @module
 */

import { formatDuration } from "../../config/duration.ts";

/** The bounds of a listener's sessions. */
export interface SessionLimits {
  /** `serve.maxSessions`: most sessions open at once. */
  maxSessions?: number;
  /** `serve.sessionIdleTimeout` in ms: a session with no request this long ends; 0: never. */
  idleTimeoutMs?: number;
}

/** One protocol era's half of an MCP endpoint: answers its requests; closed when serving stops. */
export interface EraHandler {
  handle(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** What {@link legacySessions} needs of a server: the SDK's `connect`. */
interface Connectable {
  connect(transport: unknown): Promise<void>;
}

/** `serve.maxSessions`'s default. */
export const DEFAULT_MAX_SESSIONS = 1_000;
/** `serve.sessionIdleTimeout`'s default: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** How many ended-by-expiry session ids are remembered, to say "expired" rather than "unknown". */
const EXPIRED_REMEMBERED = 10_000;

/** A JSON-RPC error with no id. */
function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}

/**
 * The 2025-era half of an endpoint (the module's rules); a request naming a
 * session it does not hold is answered 404 (-32001), as the transport asks.
 *
 * @param build A fresh server for a new session.
 * @param options.eventStore Keeps a session's streams so a client can resume one (SEP-1699).
 * @param options.onEnded Told once when a session ends (a `DELETE`, its
 *   transport closed, idle expiry, or serving stops).
 */
export async function legacySessions(
  build: () => Connectable,
  options: {
    eventStore?: () => unknown;
    retryInterval?: number;
    onEnded?: (id: string) => Promise<void>;
    /** The most bytes a request body may hold (the SDK's own default is 4 MiB). */
    maxBodyBytes?: number;
  } & SessionLimits = {},
): Promise<EraHandler> {
  const { WebStandardStreamableHTTPServerTransport } = await import(
    "@modelcontextprotocol/server"
  );
  type Transport = InstanceType<typeof WebStandardStreamableHTTPServerTransport>;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_MS;
  const sessions = new Map<string, { transport: Transport; usedAt: number }>();
  const expired = new Set<string>();
  let starting = 0;
  const end = async (id: string) => {
    if (sessions.delete(id)) await options.onEnded?.(id);
  };
  const expire = async (now: number) => {
    for (const [id, session] of [...sessions]) {
      if (now - session.usedAt < idleMs) continue;
      expired.add(id);
      if (expired.size > EXPIRED_REMEMBERED) expired.delete(expired.values().next().value!);
      await session.transport.close().catch(() => {});
      await end(id);
    }
  };
  const sweep = idleMs > 0
    ? setInterval(() => void expire(Date.now()), Math.max(25, Math.min(idleMs / 4, 60_000)))
    : undefined;
  if (sweep !== undefined) Deno.unrefTimer(sweep);
  return {
    async handle(request: Request): Promise<Response> {
      const id = request.headers.get("mcp-session-id");
      if (id !== null) {
        const known = sessions.get(id);
        if (known && (idleMs === 0 || Date.now() - known.usedAt < idleMs)) {
          known.usedAt = Date.now();
          return await known.transport.handleRequest(request);
        }
        if (known) await expire(Date.now());
        return rpcError(
          404,
          -32001,
          expired.has(id)
            ? `session ${id} expired after ${formatDuration(idleMs)} without a request ` +
              `(serve.sessionIdleTimeout); begin a new session with initialize`
            : `session ${id} is not known here (ended, or never begun)`,
        );
      }
      if (sessions.size + starting >= maxSessions) {
        return rpcError(
          503,
          -32000,
          `mcpx serve holds ${maxSessions} sessions, the most serve.maxSessions ` +
            `(MCPX_SERVE_MAX_SESSIONS) allows; no session was begun: end one (DELETE with its ` +
            `Mcp-Session-Id), wait for one to expire (serve.sessionIdleTimeout, ` +
            `${formatDuration(idleMs)}), or raise serve.maxSessions`,
        );
      }
      starting++;
      try {
        const transport: Transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => crypto.randomUUID(),
          ...(options.maxBodyBytes ? { maxRequestBodySize: options.maxBodyBytes } : {}),
          // deno-lint-ignore no-explicit-any
          ...(options.eventStore ? { eventStore: options.eventStore() as any } : {}),
          ...(options.retryInterval !== undefined ? { retryInterval: options.retryInterval } : {}),
          onsessioninitialized: (sid) => void sessions.set(sid, { transport, usedAt: Date.now() }),
          onsessionclosed: (sid) => void end(sid),
        });
        transport.onclose = () => void (transport.sessionId && end(transport.sessionId));
        await build().connect(transport);
        return await transport.handleRequest(request);
      } finally {
        starting--;
      }
    },
    async close(): Promise<void> {
      clearInterval(sweep);
      for (const [id, session] of [...sessions]) {
        await session.transport.close().catch(() => {});
        await end(id);
      }
    },
  };
}
