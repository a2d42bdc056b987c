/**
 * Where `mcpx serve --http` (and `--passthrough … --http`) listens, and the
 * check every request passes first: the one rule of every mcpx HTTP listener
 * (wire/listener_guard.ts: Host and Origin against DNS rebinding, then the
 * bearer token when one is required), rendered as a JSON-RPC error as MCP's
 * Streamable HTTP transport answers one (MCP 2025-11-25, "Transports",
 * "Security Warning"). Loopback by default; beyond loopback only with
 * `transport.bearerToken` set, and said once (issue 14, "HTTP").
 *
 * @module
 */

import { McpxError, UsageError } from "../core/errors.ts";
import { isLoopbackHost, type ListenerHosts } from "../wire/http_origin.ts";
import { BEARER_TOKEN_SETTING, BEARER_TOKEN_VARIABLE } from "../wire/bearer_token.ts";
import { listenerRefusal } from "../wire/listener_guard.ts";
import type { CliContext } from "./context.ts";

/** The port `mcpx serve --http` listens on when `--port` is not given. */
export const DEFAULT_SERVE_PORT = 8808;

/** Where serve listens and what it requires of a request. */
export interface ServeListen {
  /** The address bound, without IPv6 brackets. */
  address: string;
  /** The port; 0 lets the system choose (the real one is printed). */
  port: number;
  /** `transport.bearerToken`, required beyond loopback and checked whenever set. */
  token?: string;
  /** `transport.allowedHosts`: host names the Host header may carry beyond loopback. */
  allowedHosts?: string[];
}

/**
 * The listen options for `address` and `port`, from the settings.
 *
 * @throws {UsageError} when `address` is beyond loopback and no bearer token is set.
 */
export async function serveListen(
  ctx: CliContext,
  address: string,
  port: number,
): Promise<ServeListen> {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  if (
    bare !== "localhost" && !/^\d{1,3}(\.\d{1,3}){3}$/.test(bare) &&
    !/^[0-9a-f:.]*:[0-9a-f:.]*$/i.test(bare)
  ) {
    throw new UsageError(
      `--address takes an IP address to listen on (127.0.0.1, ::1, 0.0.0.0, a local interface's ` +
        `address) or localhost, got "${address}"`,
    );
  }
  const token = String(await ctx.setting(BEARER_TOKEN_SETTING) ?? "") || undefined;
  if (!isLoopbackHost(bare) && !token) {
    throw new UsageError(
      `--address ${address} is beyond loopback: whatever can reach that port could run tools ` +
        `as you, so it needs a bearer token; set ${BEARER_TOKEN_SETTING} ` +
        `(${BEARER_TOKEN_VARIABLE}) to a long random secret, or use --address 127.0.0.1`,
    );
  }
  const allowedHosts = String(await ctx.setting("transport.allowedHosts") ?? "").split(",")
    .map((h) => h.trim().toLowerCase()).filter(Boolean);
  if (!isLoopbackHost(bare)) {
    ctx.io.err(
      `warning: mcpx serve listens on ${address}, beyond loopback: anything that can reach it ` +
        "and holds the bearer token can run every configured server's tools as you\n",
    );
  }
  return { address: bare, port, ...(token ? { token } : {}), allowedHosts };
}

/**
 * The refusal of `request` as an HTTP response (403 for a Host or Origin this
 * listener does not answer to, 401 for a missing or wrong token), or
 * undefined when it may proceed.
 *
 * @param listen The options the listener was started with.
 * @param port The port it got (the one the system chose when 0 was asked).
 */
export function serveRefusal(
  request: Request,
  listen: ServeListen,
  port: number,
): Response | undefined {
  const hosts: ListenerHosts = {
    hostname: listen.address,
    port,
    ...(listen.allowedHosts ? { allowedHosts: listen.allowedHosts } : {}),
  };
  const refused = listenerRefusal(request, hosts, listen.token, "mcpx serve");
  if (!refused) return undefined;
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message: refused.message }, id: null },
    { status: refused.status, headers: refused.headers },
  );
}

/**
 * `serve()`, with the errors of a port that cannot be had said as such.
 *
 * @throws McpxError `address-in-use` or `address-unavailable`, naming the address and the fix.
 */
function listening<T>(listen: ServeListen, serve: () => T): T {
  try {
    return serve();
  } catch (error) {
    const where = `${listen.address}:${listen.port}`;
    if (error instanceof Deno.errors.AddrInUse) {
      throw new McpxError(
        "address-in-use",
        `${where} is in use (another mcpx serve, or another program); choose another --port, ` +
          "or --port 0 for a free one",
      );
    }
    if (
      error instanceof Deno.errors.AddrNotAvailable || error instanceof Deno.errors.PermissionDenied
    ) {
      throw new McpxError(
        "address-unavailable",
        `cannot listen on ${where} (${(error as Error).message}); use an address of this machine ` +
          "and a port above 1023",
      );
    }
    throw error;
  }
}

/** One protocol era's half of an MCP endpoint: answers its requests; closed when serving stops. */
export interface EraHandler {
  handle(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Serves MCP's Streamable HTTP at `http://<address>:<port>/mcp` until SIGINT
 * or SIGTERM, for `mcpx serve --http` and `--passthrough … --http`: every
 * request passes {@link serveRefusal}, then goes to `legacy` when the SDK's
 * `isLegacyRequest` says it is of the 2025 era (an `initialize`, or a request
 * of a session it began), else to `modern` (2026-07-28, per request).
 *
 * @param onListen Told the URL once the port is open (with the real port when 0 was asked).
 * @returns 0 once stopped, both handlers closed.
 */
export async function listenMcp(
  listen: ServeListen,
  eras: { legacy: EraHandler; modern: EraHandler },
  onListen: (url: string) => void,
): Promise<number> {
  const { isLegacyRequest } = await import("@modelcontextprotocol/server");
  const stop = new AbortController();
  const end = () => stop.abort();
  let port = listen.port;
  const server = listening(listen, () =>
    Deno.serve({
      hostname: listen.address,
      port: listen.port,
      signal: stop.signal,
      onListen: ({ hostname, port: bound }) => {
        port = bound;
        onListen(`http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${bound}/mcp`);
      },
    }, async (request) => {
      const refused = serveRefusal(request, listen, port);
      if (refused) return refused;
      if (new URL(request.url).pathname !== "/mcp") {
        return new Response("mcpx serves MCP at /mcp\n", { status: 404 });
      }
      return await isLegacyRequest(request)
        ? await eras.legacy.handle(request)
        : await eras.modern.handle(request);
    }));
  Deno.addSignalListener("SIGINT", end);
  Deno.addSignalListener("SIGTERM", end);
  try {
    await server.finished;
  } finally {
    Deno.removeSignalListener("SIGINT", end);
    Deno.removeSignalListener("SIGTERM", end);
    await eras.modern.close();
    await eras.legacy.close();
  }
  return 0;
}

/** What {@link legacySessions} needs of a server: the SDK's `connect`. */
interface Connectable {
  connect(transport: unknown): Promise<void>;
}

/**
 * The 2025-era half of an endpoint: one sessionful Streamable HTTP transport,
 * and one server from `build`, per `Mcp-Session-Id`; a request naming a
 * session it does not hold is answered 404 (-32001), as the transport asks.
 *
 * @param build A fresh server for a new session.
 * @param options.eventStore Keeps a session's streams so a client can resume one (SEP-1699).
 * @param options.onEnded Told once when a session ends (a `DELETE`, its transport closed, or serving stops).
 */
export async function legacySessions(
  build: () => Connectable,
  options: {
    eventStore?: () => unknown;
    retryInterval?: number;
    onEnded?: (id: string) => Promise<void>;
  } = {},
): Promise<EraHandler> {
  const { WebStandardStreamableHTTPServerTransport } = await import(
    "@modelcontextprotocol/server"
  );
  type Transport = InstanceType<typeof WebStandardStreamableHTTPServerTransport>;
  const sessions = new Map<string, Transport>();
  const end = async (id: string) => {
    if (sessions.delete(id)) await options.onEnded?.(id);
  };
  return {
    async handle(request: Request): Promise<Response> {
      const id = request.headers.get("mcp-session-id");
      if (id !== null) {
        const known = sessions.get(id);
        if (known) return await known.handleRequest(request);
        return Response.json({
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32001,
            message: `session ${id} is not known here (ended, or never begun)`,
          },
        }, { status: 404 });
      }
      const transport: Transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        // deno-lint-ignore no-explicit-any
        ...(options.eventStore ? { eventStore: options.eventStore() as any } : {}),
        ...(options.retryInterval !== undefined ? { retryInterval: options.retryInterval } : {}),
        onsessioninitialized: (sid) => void sessions.set(sid, transport),
        onsessionclosed: (sid) => void end(sid),
      });
      transport.onclose = () => void (transport.sessionId && end(transport.sessionId));
      await build().connect(transport);
      return await transport.handleRequest(request);
    },
    async close(): Promise<void> {
      for (const [id, transport] of [...sessions]) {
        await transport.close().catch(() => {});
        await end(id);
      }
    },
  };
}
