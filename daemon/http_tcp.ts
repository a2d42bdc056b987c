/**
 * The daemon's API on TCP, when asked (`mcpx daemon --port P [--address A]`,
 * settings `daemon.port`/`daemon.address`): the same handler as the unix
 * socket (daemon/http.ts `daemonHandler`), with the checks of every mcpx TCP
 * listener in front of it (wire/listener_guard.ts) that the socket (mode
 * 0600 in a 0700 directory) does not need:
 *
 * 1. `Host` must name this listener (against DNS rebinding): 403
 *    `forbidden-host`; an `Origin`, when sent, must be its own or one
 *    `transport.allowedOrigins` names: 403 `forbidden-origin`.
 * 2. Bound beyond loopback, `Authorization: Bearer <transport.bearerToken>`
 *    (wire/bearer_token.ts, compared in constant time): 401 `unauthorized`
 *    else, with `WWW-Authenticate: Bearer` (RFC 6750 §3). A daemon asked to
 *    bind beyond loopback without a token does not start.
 * 3. A `POST` declares `Content-Type: application/json` (415), and a body
 *    within `input.maxBytes` plus the envelope (413, as on the socket).
 * 4. A request head arrives whole within `transport.headerTimeout`, or the
 *    connection is closed (wire/guarded_listen.ts).
 *
 * Spec 000, "One daemon, many clients"; decisions 0046 and 0058.
 *
 * @module
 */

import { McpxError } from "../core/errors.ts";
import type { Daemon } from "../engine/engine.ts";
import { isLoopbackHost, type ListenerHosts } from "../wire/http_origin.ts";
import { BEARER_TOKEN_SETTING } from "../wire/bearer_token.ts";
import { type ListenerGuard, listenerRefusal, withCors } from "../wire/listener_guard.ts";
import { type GuardedServer, serveGuardedTcp } from "../wire/guarded_listen.ts";
import { bodyLimit } from "../wire/body_limit.ts";
import { DEFAULT_INPUT_MAX_BYTES } from "../core/bounded_read.ts";
import { ALLOWED_ORIGINS_SETTING } from "../wire/http_origin.ts";
import { daemonErrorResponse, daemonHandler, toWireError } from "./http.ts";

/** How the TCP listener is bound and guarded. */
export interface TcpListenOptions {
  /** The address to bind (`daemon.address`, default `127.0.0.1`). */
  hostname: string;
  /** The port (`daemon.port`; 0 lets the system choose one). */
  port: number;
  /** `transport.bearerToken`; required (non-empty) beyond loopback, checked whenever set. */
  token?: string;
  /** `transport.allowedHosts`: extra host names the Host header may carry. */
  allowedHosts?: readonly string[];
  /** `transport.allowedOrigins`: browser origins admitted besides the listener's own. */
  allowedOrigins?: readonly string[];
  /** `transport.headerTimeout` in ms (default 10 s; 0: none). */
  headerTimeoutMs?: number;
  /** The most bytes of a request body (default: `input.maxBytes`'s default plus the envelope). */
  maxBodyBytes?: number;
  /** Where the one warning about binding beyond loopback goes (default: stderr). */
  warn?: (line: string) => void;
}

/** Whether `hostname` keeps the listener on this machine (`127.0.0.0/8`, `::1`, `localhost`). */
export function bindsLoopback(hostname: string): boolean {
  return isLoopbackHost(hostname);
}

/**
 * Serves `daemon` on TCP until its `shutdown()`.
 *
 * @param onStop Called after the `stop` operation has answered.
 * @returns The server; `addr` holds the port actually bound.
 * @throws {McpxError} `token-required` (naming the setting and the variable)
 *   when the address is beyond loopback and no token is set.
 * @throws {Deno.errors.AddrInUse} when the port is taken.
 */
export function serveDaemonTcp(
  daemon: Daemon,
  options: TcpListenOptions,
  onStop: () => void,
): GuardedServer {
  const loopback = bindsLoopback(options.hostname);
  const token = options.token || undefined;
  if (!loopback && !token) {
    throw new McpxError(
      "token-required",
      `the daemon was asked to listen on ${options.hostname}:${options.port}, beyond loopback, ` +
        `without a bearer token: whatever can reach that port could run tools as you. Set ` +
        `${BEARER_TOKEN_SETTING} (MCPX_TRANSPORT_BEARER_TOKEN) to a long random secret, or ` +
        `bind 127.0.0.1`,
    );
  }
  const maxBodyBytes = options.maxBodyBytes ?? bodyLimit(DEFAULT_INPUT_MAX_BYTES);
  const handler = daemonHandler(daemon, onStop, { maxBodyBytes });
  const hosts: ListenerHosts = {
    hostname: options.hostname,
    port: options.port,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
  };
  const guard: ListenerGuard = { hosts, token, what: "this daemon", maxBodyBytes };
  const server = serveGuardedTcp({
    hostname: options.hostname,
    port: options.port,
    headerTimeoutMs: options.headerTimeoutMs ?? 10_000,
    onError: daemonErrorResponse(daemon),
  }, async (request) => {
    const refused = listenerRefusal(request, guard);
    if (refused) {
      return Response.json({
        ok: false,
        error: toWireError(new McpxError(refused.code, refused.message)),
      }, { status: refused.status, headers: refused.headers });
    }
    return await withCors(request, guard, handler);
  });
  // The port the system chose, when 0 was asked: the Host check compares against it.
  hosts.port = server.addr.port;
  if (!loopback) {
    (options.warn ?? ((line) => console.error(line)))(
      `warning: the mcpx daemon listens on ${options.hostname}:${server.addr.port}, beyond ` +
        `loopback: anything that can reach that port and holds the bearer token can run every ` +
        `configured server's tools as you`,
    );
  }
  return server;
}

/** A comma-separated setting's entries, trimmed, empty ones dropped. */
export function commaList(value: unknown): string[] {
  return String(value ?? "").split(",").map((h) => h.trim()).filter(Boolean);
}

/**
 * What a daemon's settings ask of TCP: the listen options when `daemon.port`
 * is set and the daemon runs in the foreground (`mcpx daemon`), else
 * undefined. A daemon the CLI starts on demand never opens a port: two
 * configurations' daemons would contend for it, and nobody asked (decision 0046).
 *
 * @param settings The daemon's resolved settings, keyed by dotted name.
 * @throws {McpxError} `token-required` before anything listens, as
 *   {@link serveDaemonTcp} would.
 */
export function tcpListenOptions(
  settings: Record<string, unknown>,
  mode: "auto" | "foreground",
): TcpListenOptions | undefined {
  const port = Number(settings["daemon.port"] ?? 0);
  if (mode !== "foreground" || !port) return undefined;
  const options: TcpListenOptions = {
    hostname: String(settings["daemon.address"] || "127.0.0.1"),
    port,
    token: String(settings[BEARER_TOKEN_SETTING] ?? ""),
    allowedHosts: commaList(settings["transport.allowedHosts"]).map((h) => h.toLowerCase()),
    allowedOrigins: commaList(settings[ALLOWED_ORIGINS_SETTING]),
    headerTimeoutMs: Number(settings["transport.headerTimeout"] ?? 10_000),
    maxBodyBytes: bodyLimit(Number(settings["input.maxBytes"] ?? DEFAULT_INPUT_MAX_BYTES)),
  };
  if (!bindsLoopback(options.hostname) && !options.token) {
    throw new McpxError(
      "token-required",
      `daemon.address ${options.hostname} is beyond loopback and ${BEARER_TOKEN_SETTING} is ` +
        `not set: whatever can reach port ${port} could run tools as you. Set it ` +
        `(MCPX_TRANSPORT_BEARER_TOKEN) to a long random secret, or bind 127.0.0.1`,
    );
  }
  return options;
}

/**
 * {@link serveDaemonTcp}, with a port another process holds said in mcpx's words.
 *
 * @throws {McpxError} `port-in-use` naming the address, the port and the settings.
 */
export function listenTcp(
  daemon: Daemon,
  options: TcpListenOptions,
  onStop: () => void,
): GuardedServer {
  try {
    return serveDaemonTcp(daemon, options, onStop);
  } catch (error) {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    throw new McpxError(
      "port-in-use",
      `cannot listen on ${options.hostname}:${options.port}: another process holds it; choose ` +
        `another with --port (daemon.port), or stop that process`,
      { cause: error },
    );
  }
}
