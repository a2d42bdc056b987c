/**
 * The daemon's API on TCP, when asked (`mcpx daemon --port P [--address A]`,
 * settings `daemon.port`/`daemon.address`): the same handler as the unix
 * socket (daemon/http.ts `daemonHandler`), with two checks in front of it
 * that the socket (mode 0600 in a 0700 directory) does not need:
 *
 * 1. `Host` and `Origin` must name this listener (wire/http_origin.ts
 *    `rebindingRefusal`, against DNS rebinding): 403 `forbidden-host` else.
 * 2. Bound beyond loopback, `Authorization: Bearer <transport.bearerToken>`
 *    (wire/bearer_token.ts, compared in constant time): 401 `unauthorized`
 *    else, with `WWW-Authenticate: Bearer` (RFC 6750 §3). A daemon asked to
 *    bind beyond loopback without a token does not start.
 *
 * Spec 000, "One daemon, many clients"; decision 0046.
 *
 * @module
 */

import { McpxError } from "../core/errors.ts";
import type { Daemon } from "../engine/engine.ts";
import { isLoopbackHost, type ListenerHosts } from "../wire/http_origin.ts";
import { BEARER_TOKEN_SETTING } from "../wire/bearer_token.ts";
import { listenerRefusal } from "../wire/listener_guard.ts";
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
): Deno.HttpServer<Deno.NetAddr> {
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
  const handler = daemonHandler(daemon, onStop);
  const hosts: ListenerHosts = {
    hostname: options.hostname,
    port: options.port,
    allowedHosts: options.allowedHosts,
  };
  const server = Deno.serve({
    hostname: options.hostname,
    port: options.port,
    onListen() {},
    onError: daemonErrorResponse(daemon),
  }, (request) => {
    const refused = listenerRefusal(request, hosts, token, "this daemon");
    if (refused) {
      return Response.json({
        ok: false,
        error: toWireError(new McpxError(refused.code, refused.message)),
      }, { status: refused.status, headers: refused.headers });
    }
    return handler(request);
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
    allowedHosts: String(settings["transport.allowedHosts"] ?? "").split(",")
      .map((h) => h.trim().toLowerCase()).filter(Boolean),
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
): Deno.HttpServer<Deno.NetAddr> {
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
