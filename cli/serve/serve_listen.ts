/**
 * Where `mcpx serve --http` (and `--passthrough … --http`) listens, and the
 * check every request passes first: the one rule of every mcpx HTTP listener
 * (wire/listener_guard.ts: Host against DNS rebinding, an Origin only its own
 * or one `transport.allowedOrigins` names, the bearer token when one is
 * required, `application/json` bodies only, and no body past `input.maxBytes`
 * plus the envelope), rendered as a JSON-RPC error as MCP's Streamable HTTP
 * transport answers one (MCP 2025-11-25, "Transports", "Security Warning").
 * The body is then read here, bounded, before the SDK sees it (whose own
 * limits stay as a second line), and a request head must arrive within
 * `transport.headerTimeout` (wire/guarded_listen.ts). Loopback by default;
 * beyond loopback only with `transport.bearerToken` set, and said once
 * (issue 14, "HTTP"; decision 0058).
 *
 * @module
 */

import { McpxError, UsageError } from "../../core/errors.ts";
import { DEFAULT_INPUT_MAX_BYTES } from "../../core/bounded_read.ts";
import { isLoopbackHost, type ListenerHosts } from "../../wire/http_origin.ts";
import { BEARER_TOKEN_SETTING, BEARER_TOKEN_VARIABLE } from "../../wire/bearer_token.ts";
import { type ListenerGuard, listenerRefusal, withCors } from "../../wire/listener_guard.ts";
import { ALLOWED_ORIGINS_SETTING } from "../../wire/http_origin.ts";
import { bodyLimit, readBodyBounded } from "../../wire/body_limit.ts";
import { serveGuardedTcp } from "../../wire/guarded_listen.ts";
import type { CliContext } from "../context.ts";
import type { EraHandler, SessionLimits } from "./serve_sessions.ts";

export { type EraHandler, legacySessions } from "./serve_sessions.ts";

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
  /** `transport.allowedOrigins`: browser origins admitted besides the listener's own. */
  allowedOrigins?: string[];
  /** `transport.headerTimeout` in ms (default 10 s; 0: none). */
  headerTimeoutMs?: number;
  /** The most bytes of a request body (default: `input.maxBytes`'s default plus the envelope). */
  maxBodyBytes?: number;
  /** `serve.maxSessions` and `serve.sessionIdleTimeout`, for the 2025-era sessions. */
  sessions?: SessionLimits;
}

/** A comma-separated setting's entries, trimmed, empty ones dropped. */
function commaList(value: unknown): string[] {
  return String(value ?? "").split(",").map((h) => h.trim()).filter(Boolean);
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
  const allowedHosts = commaList(await ctx.setting("transport.allowedHosts"))
    .map((h) => h.toLowerCase());
  if (!isLoopbackHost(bare)) {
    ctx.io.err(
      `warning: mcpx serve listens on ${address}, beyond loopback: anything that can reach it ` +
        "and holds the bearer token can run every configured server's tools as you\n",
    );
  }
  return {
    address: bare,
    port,
    ...(token ? { token } : {}),
    allowedHosts,
    allowedOrigins: commaList(await ctx.setting(ALLOWED_ORIGINS_SETTING)),
    headerTimeoutMs: Number(await ctx.setting("transport.headerTimeout")),
    maxBodyBytes: bodyLimit(Number(await ctx.setting("input.maxBytes"))),
    sessions: {
      maxSessions: Number(await ctx.setting("serve.maxSessions")),
      idleTimeoutMs: Number(await ctx.setting("serve.sessionIdleTimeout")),
    },
  };
}

/**
 * The most bytes a request body may hold (`input.maxBytes` plus the
 * envelope): the listener's bound, which the SDK's handlers are given as
 * their `maxRequestBodySize` too, so their own default (4 MiB) does not
 * refuse what the listener took.
 */
export function serveBodyBytes(listen: ServeListen): number {
  return listen.maxBodyBytes ?? bodyLimit(DEFAULT_INPUT_MAX_BYTES);
}

/** What serve's listener requires of a request (wire/listener_guard.ts). */
export function serveGuard(listen: ServeListen, port: number): ListenerGuard {
  const hosts: ListenerHosts = {
    hostname: listen.address,
    port,
    ...(listen.allowedHosts ? { allowedHosts: listen.allowedHosts } : {}),
    ...(listen.allowedOrigins ? { allowedOrigins: listen.allowedOrigins } : {}),
  };
  return {
    hosts,
    token: listen.token,
    what: "mcpx serve",
    maxBodyBytes: serveBodyBytes(listen),
  };
}

/** A JSON-RPC error answer with no id, as Streamable HTTP answers a refused request. */
function jsonRpcRefusal(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message }, id: null },
    { status, headers },
  );
}

/**
 * The refusal of `request` as an HTTP response (wire/listener_guard.ts: 403
 * Host or Origin, 401 token, 415 not JSON, 413 declared too large), or
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
  const refused = listenerRefusal(request, serveGuard(listen, port));
  return refused && jsonRpcRefusal(refused.status, refused.message, refused.headers);
}

/**
 * `request` with its body read whole, at most `maxBytes` of it, so the SDK
 * never reads more; a 413 JSON-RPC answer when it passes the limit.
 */
async function boundedRequest(request: Request, maxBytes: number): Promise<Request | Response> {
  if (!request.body) return request;
  try {
    const body = await readBodyBounded(request, maxBytes);
    return new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: body as Uint8Array<ArrayBuffer>,
      signal: request.signal,
    });
  } catch (error) {
    if ((error as McpxError).code === "body-too-large") {
      return jsonRpcRefusal(413, (error as McpxError).message);
    }
    // The client went away in the middle of its body: nobody reads an answer, and it is not
    // serve's failure to print.
    if (request.signal.aborted || error instanceof Deno.errors.BadResource) {
      return new Response(null, { status: 400 });
    }
    throw error;
  }
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

/**
 * Serves MCP's Streamable HTTP at `http://<address>:<port>/mcp` until SIGINT
 * or SIGTERM, for `mcpx serve --http` and `--passthrough … --http`: every
 * request passes {@link serveRefusal}, then goes to `legacy` when the SDK's
 * `isLegacyRequest` says it is of the 2025 era (an `initialize`, or a request
 * of a session it began), else to `modern` (2026-07-28, per request).
 *
 * @param onListen Told the URL once the port is open (with the real port when 0 was asked).
 * @param signal Stops serving too (besides SIGINT and SIGTERM).
 * @returns 0 once stopped, both handlers closed.
 */
export async function listenMcp(
  listen: ServeListen,
  eras: { legacy: EraHandler; modern: EraHandler },
  onListen: (url: string) => void,
  signal?: AbortSignal,
): Promise<number> {
  const { isLegacyRequest } = await import("@modelcontextprotocol/server");
  const stop = new AbortController();
  signal?.addEventListener("abort", () => stop.abort(), { once: true });
  const end = () => stop.abort();
  let guard = serveGuard(listen, listen.port);
  const route = async (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname !== "/mcp") {
      return new Response("mcpx serves MCP at /mcp\n", { status: 404 });
    }
    const bounded = await boundedRequest(request, guard.maxBodyBytes!);
    if (bounded instanceof Response) return bounded;
    return await isLegacyRequest(bounded, undefined, { maxRequestBodySize: guard.maxBodyBytes })
      ? await eras.legacy.handle(bounded)
      : await eras.modern.handle(bounded);
  };
  const server = listening(listen, () =>
    serveGuardedTcp({
      hostname: listen.address,
      port: listen.port,
      signal: stop.signal,
      headerTimeoutMs: listen.headerTimeoutMs ?? 10_000,
      onListen: ({ hostname, port: bound }) => {
        guard = serveGuard(listen, bound);
        onListen(`http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${bound}/mcp`);
      },
    }, async (request) => {
      const refused = listenerRefusal(request, guard);
      if (refused) return jsonRpcRefusal(refused.status, refused.message, refused.headers);
      return await withCors(request, guard, route, ["mcp-session-id"]);
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
