/**
 * The authorization-code flow `mcpx auth` runs, in two halves a person (or a
 * script playing the browser) joins: {@link beginAuthorization} asks the
 * server, discovers its authorization server, registers mcpx (or uses the
 * configured client), and returns the authorization URL with its state;
 * {@link completeAuthorization} checks the state the redirect brought back
 * and exchanges the code for tokens. All of OAuth is the MCP SDK's `auth()`
 * (discovery, registration, PKCE, resource indicator, scope selection,
 * RFC 9207 issuer check); this module keeps what lies between the halves in
 * the token store (engine/oauth_store.ts).
 *
 * @module
 */

import { auth, extractWWWAuthenticateParams } from "@modelcontextprotocol/client";
import { McpxError } from "../core/errors.ts";
import { entryPath, readEntry, writeEntry } from "./oauth_store.ts";
import { StoreProvider } from "./oauth_provider.ts";
import type { OAuthTarget } from "./oauth_target.ts";

/** What {@link beginAuthorization} returns: what to open, where it comes back, and the state. */
export interface StartedAuthorization {
  /** The authorization server's page to open in a browser. */
  authorizationUrl: string;
  /** The redirect URI (loopback) the code is sent back to. */
  callbackUrl: string;
  /** The `state` the redirect must bring back (`mcpx auth --state`). */
  state: string;
}

/** What {@link beginAuthorization} did instead of starting an authorization. */
export interface AlreadyAuthorized {
  authorized: true;
}

/**
 * What the server says to a request without credentials: the `resource_metadata`
 * and `scope` of its 401 challenge (RFC 9728 §5.1, RFC 6750 §3), when it sends one.
 */
async function challengeOf(url: string): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "mcpx", version: "auth" },
        },
      }),
      signal: AbortSignal.timeout(30_000),
    });
    await response.body?.cancel();
    if (response.status !== 401 && response.status !== 403) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
  } catch {
    // Discovery still tries the well-known locations.
    return {};
  }
}

/**
 * The authorization server a configured `auth.metadataUrl` names (spec 002),
 * as the discovery state the SDK's `auth()` starts from, so it does not look
 * for one: RFC 8414 metadata with at least its issuer and both endpoints.
 *
 * @throws McpxError `auth-flow` naming the URL when it cannot be read or is not such a document.
 */
async function configuredServer(metadataUrl: string, server: string) {
  const fail = (why: string) =>
    new McpxError(
      "auth-flow",
      `the authorization server metadata at ${metadataUrl} (mcpServers.${server}.auth.metadataUrl) ` +
        `${why}; fix the URL, or remove metadataUrl to let mcpx discover the server`,
    );
  let metadata: Record<string, unknown>;
  try {
    const response = await fetch(metadataUrl, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw fail(`answered HTTP ${response.status}`);
    }
    metadata = await response.json();
  } catch (error) {
    if (error instanceof McpxError) throw error;
    throw fail(`could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
  for (const field of ["issuer", "authorization_endpoint", "token_endpoint"]) {
    if (typeof metadata?.[field] !== "string") throw fail(`has no "${field}" (RFC 8414)`);
  }
  return {
    authorizationServerUrl: metadata.issuer as string,
    // deno-lint-ignore no-explicit-any
    authorizationServerMetadata: metadata as any,
  };
}

/**
 * Runs one half of the flow, turning what the network or the SDK throws (a
 * server that cannot be reached, one that offers no OAuth, an authorization
 * server that refuses) into an error naming the server, its URL and what was
 * said; mcpx's own errors pass unchanged.
 *
 * @throws McpxError `auth-unreachable` when nothing answered at the URL,
 *   `auth-flow` for the rest.
 */
async function explained<T>(target: OAuthTarget, doing: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof McpxError) throw error;
    const { server, url } = target.key;
    const said = error instanceof Error ? error.message : String(error);
    if (error instanceof TypeError && /fetch failed|connect|dns|refused/i.test(said)) {
      throw new McpxError(
        "auth-unreachable",
        `could not ${doing} "${server}": nothing answered at ${url} (${said}); check the URL ` +
          "and that the server runs",
        { cause: error },
      );
    }
    const name = error instanceof Error && error.name !== "Error" ? `${error.name}: ` : "";
    throw new McpxError(
      "auth-flow",
      `could not ${doing} "${server}" at ${url}: ${name}${said.split("\n")[0].slice(0, 300)}; ` +
        "a server that offers OAuth answers 401 with a Bearer challenge and publishes its " +
        "protected-resource metadata (RFC 9728): if this one does not, give its credentials " +
        "in an auth block or headers instead",
      { cause: error },
    );
  }
}

/** Random `state`: 128 bits, hex. */
function newState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Starts authorizing `target`: the server's challenge, then the SDK's
 * `auth()`, which discovers, registers and builds the authorization URL with
 * PKCE, the resource indicator and the scope (the challenge's, else the
 * configuration's, else what the server lists, plus what a 403 asked for
 * since). The verifier, state and redirect URI are kept for
 * {@link completeAuthorization}; earlier tokens stay until it succeeds.
 *
 * @param redirectUri The loopback URI the browser is sent back to.
 * @throws The SDK's errors (discovery, registration) as they are.
 */
export function beginAuthorization(
  target: OAuthTarget,
  redirectUri: string,
): Promise<StartedAuthorization> {
  return explained(target, "start authorizing", () => begin(target, redirectUri));
}

async function begin(target: OAuthTarget, redirectUri: string): Promise<StartedAuthorization> {
  const path = await entryPath(target.stateDir, target.key);
  const entry = await readEntry(path);
  if (entry) {
    // Registered for another redirect URI (another port): register again for this one.
    if (!entry.configuredClient) delete entry.clientInformation;
    // Discovered afresh: the server may name another authorization server since (SEP-2352).
    delete entry.discoveryState;
    await writeEntry(path, entry);
  }
  let stored = entry;
  if (target.metadataUrl) {
    // The SDK starts from a stored discovery state instead of discovering one.
    stored = entry ?? { version: 1, ...target.key };
    stored.discoveryState = await configuredServer(target.metadataUrl, target.key.server);
    await writeEntry(path, stored);
  }
  const challenge = await challengeOf(target.key.url);
  const scope = [challenge.scope, entry?.challengedScope].filter((s): s is string => !!s)
    .join(" ").split(" ").filter(Boolean);
  const state = newState();
  let authorizationUrl: URL | undefined;
  const provider = new StoreProvider({
    path,
    key: target.key,
    mode: "interactive",
    command: target.command,
    redirectUri,
    state,
    scopes: target.scopes,
    client: target.client,
    clientMetadataUrl: target.clientMetadataUrl,
    onAuthorizationUrl: (url) => authorizationUrl = url,
  }, stored);
  const result = await auth(provider, {
    serverUrl: target.key.url,
    forceReauthorization: true,
    ...(scope.length ? { scope: [...new Set(scope)].join(" ") } : {}),
    ...(challenge.resourceMetadataUrl
      ? { resourceMetadataUrl: challenge.resourceMetadataUrl }
      : {}),
  });
  if (result !== "REDIRECT" || !authorizationUrl) {
    throw new McpxError(
      "auth-flow",
      `the authorization server of "${target.key.server}" gave no authorization URL to open`,
    );
  }
  return { authorizationUrl: authorizationUrl.href, callbackUrl: redirectUri, state };
}

/**
 * Completes the authorization {@link beginAuthorization} started: the state
 * must be the one it sent (RFC 6749 §10.12), then the SDK exchanges the code
 * (with the PKCE verifier, and the `iss` check of RFC 9207 when given) and
 * the tokens are stored.
 *
 * @throws {McpxError} `auth-state` when no authorization is waiting or the state differs.
 */
export function completeAuthorization(
  target: OAuthTarget,
  callback: { code: string; state: string; iss?: string },
): Promise<void> {
  return explained(target, "complete the authorization of", () => complete(target, callback));
}

async function complete(
  target: OAuthTarget,
  callback: { code: string; state: string; iss?: string },
): Promise<void> {
  const path = await entryPath(target.stateDir, target.key);
  const entry = await readEntry(path);
  if (!entry?.state || !entry.codeVerifier) {
    throw new McpxError(
      "auth-state",
      `no authorization of "${target.key.server}" is waiting for a code: run \`${target.command}\` ` +
        "(or with --no-browser) first, then pass the --code and --state its redirect brought",
    );
  }
  if (entry.state !== callback.state) {
    throw new McpxError(
      "auth-state",
      `the state ${JSON.stringify(callback.state)} is not the one \`${target.command}\` sent; ` +
        "use the code and state of the latest authorization, or start it again",
    );
  }
  const provider = new StoreProvider({
    path,
    key: target.key,
    mode: "interactive",
    command: target.command,
    redirectUri: entry.redirectUri,
    scopes: target.scopes,
    client: target.client,
  }, entry);
  await auth(provider, {
    serverUrl: target.key.url,
    authorizationCode: callback.code,
    ...(callback.iss !== undefined ? { iss: callback.iss } : {}),
  });
}
