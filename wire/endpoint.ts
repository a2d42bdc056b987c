/**
 * A daemon's address as the wire reads it: a unix socket or a TCP host and
 * port. Portable like wire/wire.ts (which re-exports it and is inlined with
 * it into every script's generated client): imports nothing.
 *
 * @module
 */

/**
 * Where a daemon answers, as {@link wireEndpoint} reads an address: a unix
 * socket's path, or a TCP host and port (with the `Host` header to send).
 */
export type WireEndpoint =
  | { kind: "unix"; path: string }
  | { kind: "tcp"; hostname: string; port: number; host: string };

/**
 * Reads a daemon's address: a socket path (`/run/mcpx/d.sock`), `unix:<path>`
 * or `unix://<path>` (`unix:///run/mcpx/d.sock`), or `http://host:port`
 * (`MCPX_DAEMON_ENDPOINT`, spec 000 "One daemon, many clients"). A path
 * after the port is ignored; the routes are always `/v1/…`.
 *
 * @throws {TypeError} naming the value and the forms accepted, for anything else
 *   (`https:` included: the daemon speaks plain HTTP; put TLS in front of it).
 */
export function wireEndpoint(address: string): WireEndpoint {
  // A path, absolute or not (a socket under a relative state directory).
  if (!/^[a-z][a-z0-9+.-]*:/i.test(address)) return { kind: "unix", path: address };
  const unix = /^unix:(?:\/\/)?(\/.*)$/.exec(address);
  if (unix) return { kind: "unix", path: unix[1] };
  let url: URL | undefined;
  try {
    url = new URL(address);
  } catch { /* refused below */ }
  if (url?.protocol === "http:" && url.hostname && !url.username && !url.password) {
    const port = url.port ? Number(url.port) : 80;
    return {
      kind: "tcp",
      hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port,
      host: url.host,
    };
  }
  throw new TypeError(
    `${JSON.stringify(address)} is not a daemon address: use http://host:port, ` +
      `unix:///path/to/socket or an absolute socket path`,
  );
}

/** What `Deno.connect` takes to reach `endpoint`. */
export function denoConnectOptions(endpoint: WireEndpoint): Record<string, unknown> {
  return endpoint.kind === "unix"
    ? { transport: "unix", path: endpoint.path }
    : { transport: "tcp", hostname: endpoint.hostname, port: endpoint.port };
}

/** What `node:net` `createConnection` takes to reach `endpoint`. */
export function nodeConnectOptions(endpoint: WireEndpoint): Record<string, unknown> {
  return endpoint.kind === "unix"
    ? { path: endpoint.path }
    : { host: endpoint.hostname, port: endpoint.port };
}
