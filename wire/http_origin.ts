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
 * Either way a `Host` port, when given, must be the listener's port.
 *
 * An `Origin` (sent by browsers, not by curl, SDKs or mcpx) must be the
 * listener's own origin, `http://` a host the rule above accepts and the
 * listener's port (RFC 6454 §4: scheme, host and port), or one the setting
 * `transport.allowedOrigins` names; any other, `null` included, is refused.
 * A page on another `localhost` port is another origin: without this, any
 * page a developer's browser opens from `http://localhost:3000` could call
 * tools (issue 24, "Cross-site calls to /v1 over TCP"; decision 0058).
 *
 * Imports nothing: wire/listener_guard.ts, which both `mcpx serve --http` and
 * the daemon (daemon/http_tcp.ts) call, calls {@link hostRefusal} and
 * {@link originRefusal}.
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
  /**
   * Browser origins (`http://localhost:3000`, scheme, host and port, no path)
   * admitted besides the listener's own: the setting `transport.allowedOrigins`.
   */
  allowedOrigins?: readonly string[];
}

/** The setting naming extra browser origins a TCP listener admits. */
export const ALLOWED_ORIGINS_SETTING = "transport.allowedOrigins";

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
 * An origin as RFC 6454 §6.1 serializes it (`http://localhost:3000`: scheme,
 * lower-case host, port only when not the scheme's default), or undefined
 * when `value` is not an http(s) URL without path, query or credentials.
 * A trailing `/` is forgiven, as people write one in settings.
 */
export function normalizeOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  if (url.pathname !== "/" && url.pathname !== "") return undefined;
  return url.origin;
}

/** The fix a Host refusal names, by where the listener is bound. */
function hostFix(listener: ListenerHosts): string {
  return isLoopbackHost(listener.hostname)
    ? `this listener is bound to loopback (${listener.hostname}) and answers only to localhost ` +
      `or a loopback address`
    : `this listener answers to an IP address, localhost, this machine's name or a name in ` +
      `the setting transport.allowedHosts`;
}

/**
 * Why a request's `Host` must be refused as a possible DNS rebinding, or
 * undefined when it names this listener (the rule is the module's).
 *
 * @param headers The request's headers.
 * @param listener Where the listener is bound.
 * @returns One sentence naming the header, its value and the fix; undefined when accepted.
 */
export function hostRefusal(headers: Headers, listener: ListenerHosts): string | undefined {
  const fix = hostFix(listener);
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
  return undefined;
}

/**
 * Why a request's `Origin` must be refused, or undefined when it has none
 * (curl, SDKs, mcpx), when it is the listener's own origin (`http:`, a host
 * {@link hostRefusal} accepts, the listener's port), or when
 * `listener.allowedOrigins` names it.
 *
 * @returns One sentence naming the origin and the setting that admits it.
 * @example
 * ```ts
 * import { originRefusal } from "./http_origin.ts";
 * const local = { hostname: "127.0.0.1", port: 8899 };
 * if (originRefusal(new Headers({ origin: "http://localhost:8899" }), local)) throw new Error();
 * if (!originRefusal(new Headers({ origin: "http://localhost:3000" }), local)) throw new Error();
 * ```
 */
export function originRefusal(headers: Headers, listener: ListenerHosts): string | undefined {
  const origin = headers.get("origin");
  if (origin === null) return undefined;
  const normal = normalizeOrigin(origin);
  if (normal) {
    const url = new URL(normal);
    const own = url.protocol === "http:" && hostAccepted(url.hostname.toLowerCase(), listener) &&
      Number(url.port || 80) === listener.port;
    const allowed = (listener.allowedOrigins ?? []).some((o) => normalizeOrigin(o) === normal);
    if (own || allowed) return undefined;
  }
  return `Origin ${JSON.stringify(origin)} is refused: a browser page may call this listener ` +
    `only from its own origin (http://${
      listener.hostname.includes(":") ? `[${listener.hostname}]` : listener.hostname
    }:${listener.port}) or an origin the setting ${ALLOWED_ORIGINS_SETTING} names ` +
    `(MCPX_TRANSPORT_ALLOWED_ORIGINS, comma-separated, e.g. ` +
    `${normal ?? "http://localhost:3000"}); a request without Origin (curl, an SDK) is not ` +
    `affected`;
}

/**
 * Why a request must be refused as a possible DNS rebinding or a cross-site
 * call: {@link hostRefusal}, then {@link originRefusal}.
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
  return hostRefusal(headers, listener) ?? originRefusal(headers, listener);
}
