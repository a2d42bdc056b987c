/**
 * The one check every mcpx HTTP listener on TCP makes before anything else:
 * the request's `Host` and `Origin` headers name this listener, so a web
 * page whose domain was re-pointed at 127.0.0.1 (DNS rebinding) cannot use a
 * visitor's browser to reach the daemon or `mcpx serve --http`. MCP's
 * Streamable HTTP transport asks the same of servers (2025-06-18,
 * "Security Warning": validate `Origin`, bind to localhost); RFC 9110 §7.2
 * defines `Host`, RFC 6454 §7 `Origin`.
 *
 * The rule, by where the listener is bound:
 * - loopback (`127.0.0.0/8`, `::1`, `localhost`): `Host` must be a loopback
 *   name or address (`localhost`, `127.0.0.1`, `[::1]`, …);
 * - beyond loopback: `Host` may also be any IP address literal, this
 *   machine's host name, or a name in `allowedHosts` (a DNS name that points
 *   here); everything else is refused.
 * Either way a `Host` port, when given, must be the listener's port, and an
 * `Origin` (sent by browsers, not by curl or mcpx) must be `http:`/`https:`
 * with a host the same rule accepts; `Origin: null` is refused.
 *
 * Imports nothing: S1's `mcpx serve --http` and the daemon (daemon/http_tcp.ts)
 * both call {@link rebindingRefusal}.
 *
 * @module
 */

/** Where an HTTP listener is bound, and which extra host names it answers to. */
export interface ListenerHosts {
  /** The address it is bound to (`127.0.0.1`, `0.0.0.0`, `::`, `192.168.1.5`, `localhost`). */
  hostname: string;
  /** Its TCP port. */
  port: number;
  /**
   * Host names (lower case, no port) accepted besides the built-in ones, for a
   * listener bound beyond loopback and reached by a DNS name (`mcpx.internal`).
   */
  allowedHosts?: readonly string[];
}

/** True for `localhost`, `*.localhost`, any `127.x.y.z` and `::1` (brackets optional). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  if (/^::ffff:127\.\d+\.\d+\.\d+$/.test(h)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** True for an IPv4 dotted quad or an IPv6 literal (brackets optional). */
function isIpLiteral(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, "$1");
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(h) || (h.includes(":") && /^[0-9a-f:.]+$/i.test(h));
}

/** Splits `host[:port]` or `[v6][:port]`; undefined when it is not of that form. */
function splitHost(value: string): { host: string; port?: number } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]@]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!m) return undefined;
  return { host: m[1].toLowerCase(), ...(m[2] !== undefined ? { port: Number(m[2]) } : {}) };
}

function machineHostname(): string | undefined {
  try {
    // deno-lint-ignore no-explicit-any
    return (globalThis as any).Deno?.hostname?.()?.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Whether `host` (no port) names a listener bound as `listener` is. */
function hostAccepted(host: string, listener: ListenerHosts): boolean {
  if (isLoopbackHost(host)) return true;
  if (isLoopbackHost(listener.hostname)) return false;
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  return isIpLiteral(host) || bare === machineHostname() ||
    (listener.allowedHosts ?? []).some((allowed) => allowed.toLowerCase() === bare);
}

/**
 * Why a request must be refused as a possible DNS rebinding, or undefined
 * when its `Host` and `Origin` name this listener (the rule is the module's).
 * The caller answers a refusal with 403 and runs nothing.
 *
 * @param headers The request's headers.
 * @param listener Where the listener is bound.
 * @returns One sentence naming the header, its value and the fix; undefined when accepted.
 * @example
 * ```ts
 * import { rebindingRefusal } from "./http_origin.ts";
 * const local = { hostname: "127.0.0.1", port: 8899 };
 * if (rebindingRefusal(new Headers({ host: "127.0.0.1:8899" }), local)) throw new Error();
 * if (!rebindingRefusal(new Headers({ host: "evil.example:8899" }), local)) throw new Error();
 * ```
 */
export function rebindingRefusal(headers: Headers, listener: ListenerHosts): string | undefined {
  const fix = isLoopbackHost(listener.hostname)
    ? `this listener is bound to loopback (${listener.hostname}) and answers only to localhost ` +
      `or a loopback address`
    : `this listener answers to an IP address, localhost, this machine's name or a name in ` +
      `the setting transport.allowedHosts`;
  const hostHeader = headers.get("host");
  if (hostHeader === null) return `the request has no Host header; ${fix}`;
  const host = splitHost(hostHeader);
  if (!host || !hostAccepted(host.host, listener)) {
    return `Host ${JSON.stringify(hostHeader)} is refused as a possible DNS rebinding; ${fix}`;
  }
  if (host.port !== undefined && host.port !== listener.port) {
    return `Host ${JSON.stringify(hostHeader)} names port ${host.port}, but this listener is on ` +
      `port ${listener.port}`;
  }
  const origin = headers.get("origin");
  if (origin === null) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch { /* refused below */ }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return `Origin ${JSON.stringify(origin)} is refused: a page may call this listener only ` +
      `from an http(s) origin on this listener's host`;
  }
  if (!hostAccepted(url.hostname.toLowerCase(), listener)) {
    return `Origin ${JSON.stringify(origin)} is refused as a possible DNS rebinding; ${fix}`;
  }
  return undefined;
}
