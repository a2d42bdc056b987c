/**
 * Credentials written in a remote's URL (`https://user:password@host/mcp`)
 * and what mcpx sends instead: the URL without them, and — unless the entry
 * configures an `Authorization` header of its own — an explicit HTTP Basic
 * header built from them (RFC 7617, `Basic base64(user ":" password)`).
 *
 * Why: `fetch` turns a URL's user information into a Basic header by itself,
 * and Deno's sends it beside a configured `Authorization` header (the server
 * sees both, or only the Basic one). So the header the user configured was
 * overridden without a word, and the credentials a server echoed were a
 * base64 form nothing knew to redact. Making the header explicit gives one
 * rule: a configured `Authorization` header wins, and the URL's credentials
 * are a fallback (config/_process.ts warns when an entry has both).
 * config/secrets.ts names the `user:password` text ({@link basicCredentials})
 * as the secret `${mcpServers.<name>.url.userinfo}`, so its base64 echo is
 * shown as that reference.
 *
 * @module
 */

/** A URL's user name and password, percent-decoded (as the server receives them). */
export interface UrlCredentials {
  username: string;
  password: string;
}

/** What a remote is reached with: the URL without credentials, and the headers to send. */
export interface RemoteEndpoint {
  /** The configured URL with its user information removed. */
  url: URL;
  /** The configured headers, plus `Authorization: Basic …` when the URL had credentials and none was configured. */
  headers: Record<string, string>;
}

/**
 * The user information of `url`, decoded; undefined when it has none or is
 * not a URL.
 *
 * @example
 * ```ts
 * import { urlCredentials } from "./url_credentials.ts";
 * const c = urlCredentials("https://me:p%40ss@host.test/mcp");
 * if (c?.username !== "me" || c.password !== "p@ss") throw new Error();
 * ```
 */
export function urlCredentials(url: string): UrlCredentials | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.username === "" && parsed.password === "") return undefined;
  return { username: decode(parsed.username), password: decode(parsed.password) };
}

/**
 * The `user-pass` text of an HTTP Basic credential (RFC 7617 section 2):
 * `user:password`, the colon always present.
 */
export function basicCredentials(credentials: UrlCredentials): string {
  return `${credentials.username}:${credentials.password}`;
}

/**
 * The name, as written, of the `Authorization` header in `headers` (names
 * compare without regard to case, RFC 9110 section 5.1); undefined when there
 * is none.
 */
export function authorizationHeader(headers: Record<string, string>): string | undefined {
  return Object.keys(headers).find((name) => name.toLowerCase() === "authorization");
}

/**
 * The URL and headers a remote's transport is given: user information
 * removed from the URL; when there was some and no `Authorization` header is
 * configured, `Authorization: Basic base64(utf8(user:password))` is added.
 *
 * @param url The configured URL (expanded). @throws {TypeError} when it is not a URL.
 * @param headers The configured headers (expanded); not changed.
 * @example
 * ```ts
 * import { remoteEndpoint } from "./url_credentials.ts";
 * const e = remoteEndpoint("http://user:pw@127.0.0.1:9/mcp", {});
 * if (e.url.href !== "http://127.0.0.1:9/mcp") throw new Error(e.url.href);
 * if (e.headers.Authorization !== "Basic dXNlcjpwdw==") throw new Error();
 * ```
 */
export function remoteEndpoint(url: string, headers: Record<string, string>): RemoteEndpoint {
  const bare = new URL(url);
  const credentials = urlCredentials(url);
  if (!credentials) return { url: bare, headers };
  bare.username = "";
  bare.password = "";
  if (authorizationHeader(headers) !== undefined) return { url: bare, headers };
  const basic = new TextEncoder().encode(basicCredentials(credentials)).toBase64();
  return {
    url: bare,
    headers: { ...headers, Authorization: `Basic ${basic}` },
  };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
