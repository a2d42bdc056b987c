/**
 * OAuth as a remote transport uses it (engine/remote_transport.ts): the
 * bearer token of each request read from the token store, refreshed before
 * it expires and when the server answers 401, and a request that needs a
 * person turned into {@link AuthorizationRequiredError} ("run `mcpx auth
 * <server>`"), never a bare 401 and never a browser.
 *
 * A refresh replaces the token a request saw, at most once, whoever else
 * finds it expired or refused at the same moment (engine/oauth_refresh.ts,
 * decision 0042): a 401 answers the token that request carried (recorded by
 * {@link bearerRecordingFetch}), not whatever the store holds by then.
 *
 * @module
 */

import {
  type AuthProvider,
  extractWWWAuthenticateParams,
  type FetchLike,
  InsufficientScopeError,
  SdkErrorCode,
  SdkHttpError,
} from "@modelcontextprotocol/client";
import type { ServerSpec } from "../config/types.ts";
import { type Credentials, NotOAuthChallengeError } from "./http_status.ts";
import { entryPath, readEntry, withStoreLock, writeEntry } from "./oauth_store.ts";
import { AuthorizationRequiredError } from "./oauth_provider.ts";
import { currentAccessToken, refreshReplacing } from "./oauth_refresh.ts";
import type { OAuthTarget } from "./oauth_target.ts";
import { oauthOf } from "../config/auth.ts";
import { authorizationHeader, urlCredentials } from "../config/url_credentials.ts";

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

/**
 * What `spec`'s requests carry to authorize them, for the sentence a 401 or
 * 403 gets (engine/http_status.ts): OAuth when the transport carries the
 * stored tokens (`oauth`, from engine/oauth_target.ts oauthTargetOf) or the entry's `auth`
 * block is of type `oauth`; the `auth` block's kind; else `headers`.
 */
export function credentialsOf(spec: ServerSpec, oauth?: OAuthTarget): Credentials {
  if (oauth) return { kind: "oauth", command: oauth.command };
  if (spec.auth?.type === "oauth") return { kind: "oauth", command: `mcpx auth ${spec.name}` };
  if (spec.auth) return { kind: "auth", type: spec.auth.type };
  return { kind: "headers" };
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

/** The bearer token each request carried, by the response that answered it. */
const sentWith = new WeakMap<Response, string>();

/**
 * `base`, recording the bearer token each request carries against the
 * response that answers it, so a 401 is matched with the token it refused
 * even while other requests on the connection carry newer ones.
 */
export function bearerRecordingFetch(base: FetchLike): FetchLike {
  return async (input, init) => {
    const bearer = new Headers(init?.headers).get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
    const response = await base(input, init);
    if (bearer !== undefined) sentWith.set(response, bearer);
    return response;
  };
}

/**
 * The SDK `AuthProvider` a remote transport to the target carries (with
 * {@link bearerRecordingFetch} as its fetch): each request's bearer token
 * ({@link currentAccessToken}), and on a 401 the replacement of the token
 * that request carried, refreshed at most once ({@link refreshReplacing}):
 * when another request, connection or process already replaced it, the
 * transport retries with the replacement and nothing is refreshed.
 */
export function oauthAuthProvider(target: OAuthTarget): AuthProvider {
  return {
    token: () => currentAccessToken(target),
    onUnauthorized: async (ctx) => {
      const sent = sentWith.get(ctx.response);
      if (sent === undefined && !bearerChallenged(ctx.response)) {
        // No token was sent and the server asks for none: a 401 that is not OAuth's
        // (a key it refused, a proxy), said as the HTTP failure it is, not as `mcpx auth`.
        throw new NotOAuthChallengeError();
      }
      const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(ctx.response);
      await refreshReplacing(target, sent, { scope, resourceMetadataUrl, fetchFn: ctx.fetchFn });
    },
  };
}

/**
 * What a request's failure means for OAuth: the SDK's `InsufficientScopeError`
 * (a 403 `insufficient_scope` challenge; the transport carries no
 * `OAuthClientProvider`, so it never starts a browser flow itself) becomes
 * {@link AuthorizationRequiredError}, with the scope recorded in the store
 * so the next `mcpx auth` asks for it; a 401 to the retry after
 * {@link oauthAuthProvider} replaced the token (the SDK's
 * `ClientHttpAuthentication`) becomes one too: the stored tokens do not
 * work; anything else is returned unchanged.
 */
export async function authorizationFailure(error: unknown, target: OAuthTarget): Promise<unknown> {
  if (error instanceof SdkHttpError && error.code === SdkErrorCode.ClientHttpAuthentication) {
    return new AuthorizationRequiredError(
      target.key.server,
      target.command,
      "the server refused the access token mcpx holds for it, also once replaced",
      { cause: error },
    );
  }
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
