/**
 * OAuth as a remote transport uses it (engine/remote_transport.ts): the
 * bearer token of each request read from the token store, refreshed before
 * it expires and when the server answers 401, and a request that needs a
 * person turned into {@link AuthorizationRequiredError} ("run `mcpx auth
 * <server>`"), never a bare 401 and never a browser.
 *
 * A refresh holds the entry's lock (engine/oauth_store.ts `withStoreLock`)
 * and reads the entry again once it has it: when another process refreshed
 * while this one waited, its tokens are used and the single-use refresh
 * token is not spent twice (decision 0042).
 *
 * @module
 */

import {
  auth,
  type AuthProvider,
  extractWWWAuthenticateParams,
  type FetchLike,
  InsufficientScopeError,
  type StoredOAuthTokens,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import type { ServerSpec } from "../config/types.ts";
import {
  entryPath,
  type OAuthStoreKey,
  readEntry,
  withStoreLock,
  writeEntry,
} from "./oauth_store.ts";
import {
  AuthorizationRequiredError,
  type ConfiguredClient,
  StoreProvider,
} from "./oauth_provider.ts";
import { join } from "../core/posix_path.ts";
import { oauthOf } from "../config/auth.ts";
import { authorizationHeader, urlCredentials } from "../config/url_credentials.ts";

/** Tokens this close to their expiry (ms) are refreshed before they are sent. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * Whether mcpx may answer a 401 from `spec`'s server with OAuth: a remote
 * server whose entry gives no credential of another kind (no `Authorization`
 * header, no `user:password@` in its URL, which is sent as one, no `auth`
 * block but one of type `oauth`). A 401 to a credential the entry gives is
 * that credential's problem, said as such (engine/http_status.ts).
 */
export function oauthApplies(spec: ServerSpec): boolean {
  if (spec.transport === "stdio" || !spec.url) return false;
  if (authorizationHeader(spec.headers) !== undefined || urlCredentials(spec.url)) return false;
  return spec.auth === undefined || oauthOf(spec) !== undefined;
}

/** Where the configuration file `configPath` says a server is: its command to authorize it. */
export function authCommandOf(
  stateDir: string,
  configPath: string,
  spec: Pick<ServerSpec, "name" | "url">,
): string {
  // A direct target's generated file: the URL is what the user typed.
  const direct = configPath.startsWith(join(stateDir, "direct") + "/");
  return `mcpx auth ${direct ? spec.url : spec.name}`;
}

/** One server's place in the token store and how to authorize it. */
export interface OAuthTarget {
  stateDir: string;
  key: OAuthStoreKey;
  /** `mcpx auth <server>` (or `<url>`). */
  command: string;
  scopes?: string[];
  client?: ConfiguredClient;
  /**
   * The authorization server's metadata document, when the entry names it
   * (`auth.metadataUrl`, spec 002) instead of leaving it to discovery.
   */
  metadataUrl?: string;
  /** The client ID metadata document's URL (setting `oauth.clientMetadataUrl`), when set. */
  clientMetadataUrl?: string;
}

/** The {@link OAuthTarget} of a configured server. */
export function oauthTargetOf(spec: ServerSpec, configPath: string, stateDir: string): OAuthTarget {
  const block = oauthOf(spec);
  return {
    stateDir,
    key: { configPath, server: spec.name, url: spec.url! },
    command: authCommandOf(stateDir, configPath, spec),
    ...(block?.scopes ? { scopes: block.scopes } : {}),
    ...(block?.metadataUrl ? { metadataUrl: block.metadataUrl } : {}),
    ...(block?.clientId
      ? {
        client: {
          clientId: block.clientId,
          ...(block.clientSecret ? { clientSecret: block.clientSecret } : {}),
        },
      }
      : {}),
  };
}

async function backgroundProvider(target: OAuthTarget): Promise<StoreProvider> {
  const path = await entryPath(target.stateDir, target.key);
  const provider = new StoreProvider({
    path,
    key: target.key,
    mode: "background",
    command: target.command,
    scopes: target.scopes,
    client: target.client,
  }, undefined);
  await provider.load();
  return provider;
}

/**
 * Refreshes the target's tokens unless someone already did: takes the
 * entry's lock, reads the entry again, and refreshes (the SDK's `auth()`,
 * which spends the refresh token) only while `stale(tokens)` still holds.
 *
 * @param stale Whether the tokens read under the lock still need a refresh.
 * @returns The tokens now stored.
 * @throws {AuthorizationRequiredError} when there are no tokens, no refresh
 *   token, or the authorization server refused the refresh.
 */
export async function refreshUnderLock(
  target: OAuthTarget,
  stale: (tokens: StoredOAuthTokens, expiresAt: number | undefined) => boolean,
  options: { scope?: string; resourceMetadataUrl?: URL; fetchFn?: FetchLike } = {},
): Promise<StoredOAuthTokens> {
  const path = await entryPath(target.stateDir, target.key);
  return await withStoreLock(path, async () => {
    const entry = await readEntry(path);
    if (!entry?.tokens) {
      // What the server asked for is what the next `mcpx auth` asks for (MCP "Scope Selection Strategy").
      if (options.scope) {
        await writeEntry(path, {
          version: 1,
          ...target.key,
          ...entry,
          challengedScope: options.scope,
        });
      }
      throw new AuthorizationRequiredError(
        target.key.server,
        target.command,
        "mcpx holds no tokens for it",
      );
    }
    if (!stale(entry.tokens, entry.expiresAt)) return entry.tokens;
    if (!entry.tokens.refresh_token) {
      throw new AuthorizationRequiredError(
        target.key.server,
        target.command,
        "its access token was refused and it gave no refresh token",
      );
    }
    const provider = await backgroundProvider(target);
    await auth(provider, {
      serverUrl: target.key.url,
      ...(options.scope ? { scope: options.scope } : {}),
      ...(options.resourceMetadataUrl ? { resourceMetadataUrl: options.resourceMetadataUrl } : {}),
      ...(options.fetchFn ? { fetchFn: options.fetchFn } : {}),
    });
    const now = await provider.tokens();
    if (!now) {
      throw new AuthorizationRequiredError(
        target.key.server,
        target.command,
        "its refresh was refused",
      );
    }
    return now;
  });
}

/** True when tokens expiring at `expiresAt` (epoch ms) should be refreshed now. */
export function expiresSoon(expiresAt: number | undefined, now = Date.now()): boolean {
  return expiresAt !== undefined && expiresAt - now < REFRESH_MARGIN_MS;
}

/**
 * The access token to send to the target now: the stored one, refreshed
 * first when it expires within {@link REFRESH_MARGIN_MS}; undefined when
 * mcpx holds none (the request goes without, and a 401 says what to do).
 */
export async function currentAccessToken(target: OAuthTarget): Promise<string | undefined> {
  const path = await entryPath(target.stateDir, target.key);
  const entry = await readEntry(path);
  if (!entry?.tokens) return undefined;
  if (entry.tokens.refresh_token && expiresSoon(entry.expiresAt)) {
    const tokens = await refreshUnderLock(target, (_, expiresAt) => expiresSoon(expiresAt));
    return tokens.access_token;
  }
  return entry.tokens.access_token;
}

/**
 * Whether a 401 asks for a bearer token: a `WWW-Authenticate` challenge of
 * the `Bearer` scheme, which a protected resource using OAuth sends with
 * every 401 (RFC 6750 section 3; MCP 2025-06-18 and later, "Authorization":
 * servers MUST send it).
 */
export function bearerChallenged(response: Response): boolean {
  return /(^|,)\s*bearer(\s|,|$)/i.test(response.headers.get("www-authenticate") ?? "");
}

/**
 * The SDK `AuthProvider` a remote transport to the target carries: each
 * request's bearer token ({@link currentAccessToken}), and on a 401 a
 * refresh under the lock, unless the token sent is no longer the stored one
 * (another process refreshed it: the transport retries with the new one).
 */
export function oauthAuthProvider(target: OAuthTarget): AuthProvider {
  let sent: string | undefined;
  return {
    token: async () => {
      sent = await currentAccessToken(target);
      return sent;
    },
    onUnauthorized: async (ctx) => {
      if (sent === undefined && !bearerChallenged(ctx.response)) {
        // No token was sent and the server asks for none: a 401 that is not OAuth's
        // (a key it refused, a proxy), said as the HTTP failure it is, not as `mcpx auth`.
        throw new UnauthorizedError("the server answered 401 without a Bearer challenge");
      }
      const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(ctx.response);
      await refreshUnderLock(target, (tokens) => tokens.access_token === sent, {
        scope,
        resourceMetadataUrl,
        fetchFn: ctx.fetchFn,
      });
    },
  };
}

/**
 * What a request's failure means for OAuth: the SDK's `InsufficientScopeError`
 * (a 403 `insufficient_scope` challenge; the transport carries no
 * `OAuthClientProvider`, so it never starts a browser flow itself) becomes
 * {@link AuthorizationRequiredError}, with the scope recorded in the store
 * so the next `mcpx auth` asks for it; anything else is returned unchanged.
 */
export async function authorizationFailure(error: unknown, target: OAuthTarget): Promise<unknown> {
  if (!(error instanceof InsufficientScopeError)) return error;
  const path = await entryPath(target.stateDir, target.key);
  await withStoreLock(path, async () => {
    const entry = await readEntry(path) ?? { version: 1 as const, ...target.key };
    const scope = [entry.challengedScope, entry.tokens?.scope, error.requiredScope]
      .filter((s): s is string => !!s).join(" ").split(" ");
    await writeEntry(path, { ...entry, challengedScope: [...new Set(scope)].join(" ") });
  });
  return new AuthorizationRequiredError(
    target.key.server,
    target.command,
    `it asks for the scope "${error.requiredScope ?? "?"}", which the tokens do not carry`,
    { cause: error },
  );
}
