/**
 * When mcpx spends a refresh token: at most once per access token, however
 * many requests, connections and processes find it expired or refused at the
 * same moment (decision 0042, "Refresh: once per token"). Many authorization
 * servers rotate refresh tokens and revoke the whole grant when a spent one
 * comes back (OAuth 2.1 §6.1), so a second refresh of the same token costs
 * the user their authorization.
 *
 * The rule: a caller refreshes *the token it saw* (the one it was about to
 * send, or the one a 401 answered), never "whatever is stored". Under the
 * entry's lock (engine/oauth_store.ts `withStoreLock`, a kernel flock shared
 * by every process on the machine) it reads the entry again, and refreshes
 * only while the stored access token is still that one (and, when the caller
 * read it from the store, the entry is still the one saved then); when it is
 * not, someone replaced it, and the caller uses the replacement. Inside one
 * process, callers replacing the same token join one refresh
 * ({@link refreshReplacing}) before they reach the lock.
 *
 * @module
 */

import { auth, type FetchLike, type StoredOAuthTokens } from "@modelcontextprotocol/client";
import {
  entryPath,
  type OAuthStoreEntry,
  readEntry,
  withStoreLock,
  writeEntry,
} from "./oauth_store.ts";
import { AuthorizationRequiredError, StoreProvider } from "./oauth_provider.ts";
import type { OAuthTarget } from "./oauth_target.ts";

/**
 * Tokens this close to their expiry (ms) are refreshed before they are sent,
 * or a quarter of their lifetime when that is shorter ({@link expiresSoon}).
 */
export const REFRESH_MARGIN_MS = 60_000;

/** What a refresh may pass on to the SDK's `auth()`: what a 401 challenge named. */
export interface RefreshOptions {
  /** The scope the challenge asked for (recorded for `mcpx auth` when no tokens are held). */
  scope?: string;
  /** The protected-resource metadata the challenge named (RFC 9728 §5.1). */
  resourceMetadataUrl?: URL;
  /** The transport's fetch, for the token request. */
  fetchFn?: FetchLike;
  /**
   * When the caller read the token it replaces from the store: that entry's
   * `savedAt` (epoch ms). An entry saved at another moment was written since,
   * so its token is the replacement even when it is the same string (an
   * authorization server that signs the same claims within one second issues
   * the same JWT again).
   */
  savedAt?: number;
}

/**
 * True when stored tokens should be refreshed before they are sent: they
 * expire within {@link REFRESH_MARGIN_MS}, or within a quarter of their
 * lifetime when that is shorter (a token that lives 30 s is not refreshed
 * the moment it is issued); never when the server gave no `expires_in`.
 *
 * @param entry `expiresAt` and `savedAt` (epoch ms) as the store holds them.
 * @param now Epoch ms.
 */
export function expiresSoon(
  entry: Pick<OAuthStoreEntry, "expiresAt" | "savedAt">,
  now: number = Date.now(),
): boolean {
  const { expiresAt, savedAt } = entry;
  if (expiresAt === undefined) return false;
  const lifetime = savedAt === undefined ? Infinity : Math.max(0, expiresAt - savedAt);
  return expiresAt - now <= Math.min(REFRESH_MARGIN_MS, lifetime / 4);
}

async function backgroundProvider(target: OAuthTarget, path: string): Promise<StoreProvider> {
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
 * Replaces the access token `replaced` unless someone already did: takes the
 * entry's lock, reads the entry again, and refreshes (the SDK's `auth()`,
 * which spends the refresh token) only while the stored access token is
 * still `replaced`. `replaced` undefined (a request that carried no token
 * was challenged) never refreshes: it returns what is stored, if anything.
 *
 * @returns The tokens now stored: the new ones, or the ones that had
 *   already replaced `replaced`.
 * @throws {AuthorizationRequiredError} when there are no tokens, no refresh
 *   token, or the authorization server refused the refresh.
 */
export async function refreshUnderLock(
  target: OAuthTarget,
  replaced: string | undefined,
  options: RefreshOptions = {},
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
    if (replaced === undefined || entry.tokens.access_token !== replaced) return entry.tokens;
    if (options.savedAt !== undefined && entry.savedAt !== options.savedAt) return entry.tokens;
    if (!entry.tokens.refresh_token) {
      throw new AuthorizationRequiredError(
        target.key.server,
        target.command,
        "its access token was refused and it gave no refresh token",
      );
    }
    const provider = await backgroundProvider(target, path);
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

/** Refreshes running in this process, by entry file and the access token each replaces. */
const refreshing = new Map<string, Promise<StoredOAuthTokens>>();

/**
 * {@link refreshUnderLock}, joined in this process: callers that replace the
 * same access token of the same entry while a refresh of it runs (requests
 * on one connection, or on several connections of one daemon) wait for that
 * refresh and share its outcome, success or failure, rather than each
 * queueing on the lock.
 *
 * @returns The tokens now stored.
 * @throws What {@link refreshUnderLock} throws.
 */
export async function refreshReplacing(
  target: OAuthTarget,
  replaced: string | undefined,
  options: RefreshOptions = {},
): Promise<StoredOAuthTokens> {
  const path = await entryPath(target.stateDir, target.key);
  const key = JSON.stringify([path, replaced ?? null]);
  const running = refreshing.get(key);
  if (running) return await running;
  const started = refreshUnderLock(target, replaced, options)
    .finally(() => refreshing.delete(key));
  refreshing.set(key, started);
  return await started;
}

/**
 * The access token to send to the target now: the stored one, or, when it
 * {@link expiresSoon}, its replacement (refreshed now, or by whoever got
 * there first); undefined when mcpx holds none (the request goes without,
 * and a 401 says what to do).
 */
export async function currentAccessToken(target: OAuthTarget): Promise<string | undefined> {
  const path = await entryPath(target.stateDir, target.key);
  const entry = await readEntry(path);
  if (!entry?.tokens) return undefined;
  if (entry.tokens.refresh_token && expiresSoon(entry)) {
    const seen = entry.savedAt === undefined ? {} : { savedAt: entry.savedAt };
    return (await refreshReplacing(target, entry.tokens.access_token, seen)).access_token;
  }
  return entry.tokens.access_token;
}
