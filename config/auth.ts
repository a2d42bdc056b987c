/**
 * Static credentials of a server entry: its `auth` block, validated and
 * `${VAR}` expanded (config/_auth.ts reads it), and what each kind adds to
 * the request or the child process.
 *
 * | kind     | transport    | sent as                                            |
 * | -------- | ------------ | -------------------------------------------------- |
 * | `bearer` | http, sse    | `Authorization: Bearer <token>` (RFC 6750)         |
 * | `basic`  | http, sse    | `Authorization: Basic base64(user:password)` (RFC 7617) |
 * | `header` | http, sse    | `<name>: <value>`                                  |
 * | `query`  | http, sse    | `?<name>=<value>` on the URL                       |
 * | `env`    | stdio        | variables of the child's environment               |
 * | `oauth`  | http, sse    | nothing here: the OAuth client does it ({@link oauthOf}) |
 *
 * Source: spec 000, "Credentials" (stdio takes credentials from the
 * environment; HTTP uses OAuth when the server is protected; static kinds
 * with `${VAR}` so the secret is never in the file); spec 002's `auth`
 * block (`clientId`, `clientSecret`, `metadataUrl`); decision 0041.
 *
 * @module
 */

/** `Authorization: Bearer <token>` on every request (RFC 6750 section 2.1). */
export interface BearerAuth {
  type: "bearer";
  token: string;
}

/** `Authorization: Basic base64(utf8(username ":" password))` (RFC 7617). */
export interface BasicAuth {
  type: "basic";
  username: string;
  password: string;
}

/** One header of the caller's choosing on every request, e.g. `X-Api-Key`. */
export interface HeaderAuth {
  type: "header";
  /** A header name (an RFC 9110 token). */
  name: string;
  value: string;
}

/** One URL query parameter on every request, e.g. `?key=…`; replaces one of that name in the URL. */
export interface QueryAuth {
  type: "query";
  name: string;
  value: string;
}

/**
 * Variables added to a stdio server's environment. Written either as one
 * (`{ "type": "env", "name": "API_KEY", "value": "${API_KEY}" }`) or as a map
 * (`{ "type": "env", "vars": { "API_KEY": "${API_KEY}" } }`); held as the map.
 */
export interface EnvAuth {
  type: "env";
  /** Variable name → value, at least one. */
  vars: Record<string, string>;
}

/**
 * OAuth 2.1 for a remote server, performed by the OAuth client (not by this
 * module). Every field is optional: without a client id the client registers
 * itself dynamically; without scopes it asks for those the server's challenge
 * names. Field names are spec 002's.
 */
export interface OAuthSettings {
  type: "oauth";
  /** A pre-registered client id (`${VAR}` expanded). */
  clientId?: string;
  /** That client's secret (`${VAR}` expanded). */
  clientSecret?: string;
  /** Scopes to request, in order. */
  scopes?: string[];
  /** The authorization server's metadata URL, when discovery should not be used. */
  metadataUrl?: string;
}

/** A server's `auth` block, after validation and `${VAR}` expansion. */
export type ServerAuth = BearerAuth | BasicAuth | HeaderAuth | QueryAuth | EnvAuth | OAuthSettings;

/** The kind of an `auth` block: its `type`. */
export type AuthType = ServerAuth["type"];

/** Every kind of `auth` block, in documentation order. */
export const AUTH_TYPES: readonly AuthType[] = [
  "bearer",
  "basic",
  "header",
  "query",
  "env",
  "oauth",
];

/** The kinds a stdio server may have; the others are for remote servers only. */
export const STDIO_AUTH_TYPES: readonly AuthType[] = ["env"];

/**
 * The OAuth settings of a server, for the OAuth client: undefined when its
 * `auth` block is absent or of another kind.
 *
 * @param server A parsed server (`ServerSpec` or anything with its `auth`).
 * @returns The settings, `${VAR}` already expanded.
 * @example
 * ```ts
 * import { oauthOf } from "./auth.ts";
 * const s = oauthOf({ auth: { type: "oauth", scopes: ["read"] } });
 * if (s?.scopes?.[0] !== "read" || oauthOf({}) !== undefined) throw new Error();
 * ```
 */
export function oauthOf(server: { auth?: ServerAuth }): OAuthSettings | undefined {
  return server.auth?.type === "oauth" ? server.auth : undefined;
}

/**
 * The headers a remote server's `auth` block adds to every request: one
 * `Authorization` header for `bearer` and `basic`, the named header for
 * `header`, none for the other kinds.
 *
 * @param auth The block, or undefined.
 * @returns Header name → value (a new object).
 * @example
 * ```ts
 * import { authHeaders } from "./auth.ts";
 * const h = authHeaders({ type: "basic", username: "user", password: "pw" });
 * if (h.Authorization !== "Basic dXNlcjpwdw==") throw new Error();
 * ```
 */
export function authHeaders(auth: ServerAuth | undefined): Record<string, string> {
  switch (auth?.type) {
    case "bearer":
      return { Authorization: `Bearer ${auth.token}` };
    case "basic": {
      const userPass = new TextEncoder().encode(`${auth.username}:${auth.password}`);
      return { Authorization: `Basic ${userPass.toBase64()}` };
    }
    case "header":
      return { [auth.name]: auth.value };
    default:
      return {};
  }
}

/**
 * The URL a remote server is reached at once its `auth` block applies: for
 * `query`, the parameter set (replacing any of that name); else `url` as given.
 *
 * @param url The configured URL (expanded). @throws {TypeError} when it is not a URL and a parameter must be set.
 * @param auth The block, or undefined.
 * @returns The URL as text.
 * @example
 * ```ts
 * import { authUrl } from "./auth.ts";
 * const u = authUrl("https://x.test/mcp?a=1", { type: "query", name: "key", value: "k 1" });
 * if (u !== "https://x.test/mcp?a=1&key=k+1") throw new Error(u);
 * ```
 */
export function authUrl(url: string, auth: ServerAuth | undefined): string {
  if (auth?.type !== "query") return url;
  const parsed = new URL(url);
  parsed.searchParams.set(auth.name, auth.value);
  return parsed.href;
}

/**
 * The variables a stdio server's `auth` block adds to its environment
 * (`env` kind); none for the other kinds.
 *
 * @param auth The block, or undefined.
 * @returns Variable name → value (a new object).
 */
export function authEnv(auth: ServerAuth | undefined): Record<string, string> {
  return auth?.type === "env" ? { ...auth.vars } : {};
}
