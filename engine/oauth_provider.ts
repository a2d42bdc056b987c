/**
 * mcpx's `OAuthClientProvider` (the MCP SDK's interface, which its `auth()`
 * drives: discovery of the protected-resource and authorization-server
 * metadata, dynamic client registration, PKCE, the resource indicator,
 * scopes from the challenge), backed by one entry of the token store
 * (engine/oauth_store.ts). Every read goes to the file, so a daemon sees the
 * tokens `mcpx auth` saved a moment ago, and every save is read-modify-write.
 *
 * Two uses: `interactive` (`mcpx auth`: the verifier, state and redirect URI
 * are kept for `--code`, and the authorization URL is handed to the caller to
 * open or print) and `background` (the daemon: nothing of a new authorization
 * is kept, and a flow that would need a browser throws
 * {@link AuthorizationRequiredError} naming `mcpx auth <server>` instead; a
 * call never opens a browser, spec 002 "OAuth").
 *
 * @module
 */

import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { McpxError } from "../core/errors.ts";
import {
  expiryOf,
  type OAuthStoreEntry,
  type OAuthStoreKey,
  readEntry,
  writeEntry,
} from "./oauth_store.ts";

/**
 * A remote server answered 401 (or 403 `insufficient_scope`) and mcpx holds
 * no tokens that work for it: a person has to authorize it once with
 * {@link AuthorizationRequiredError.command}. Exit code 1.
 */
export class AuthorizationRequiredError extends McpxError {
  /** The server's name. */
  readonly server: string;
  /** The command that authorizes it (`mcpx auth <server>` or `mcpx auth <url>`). */
  readonly command: string;
  constructor(server: string, command: string, why: string, options?: ErrorOptions) {
    super(
      "auth-required",
      `server "${server}" needs authorization (${why}): run \`${command}\` (a person, once; ` +
        "`--no-browser` prints the URL to open elsewhere)",
      options,
    );
    this.name = "AuthorizationRequiredError";
    this.server = server;
    this.command = command;
  }
}

/** True when `error`, or one of its causes (5 deep), is an {@link AuthorizationRequiredError}. */
export function authorizationRequired(error: unknown): AuthorizationRequiredError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current instanceof AuthorizationRequiredError) return current;
    current = current.cause;
  }
  return undefined;
}

/** The client a configuration or `--client-id` names (pre-registered with the authorization server). */
export interface ConfiguredClient {
  clientId: string;
  clientSecret?: string;
}

/** What {@link StoreProvider} needs besides the store entry's key. */
export interface StoreProviderOptions {
  /** The file of the entry (engine/oauth_store.ts `entryPath`). */
  path: string;
  key: OAuthStoreKey;
  mode: "interactive" | "background";
  /** The command that authorizes this server, for {@link AuthorizationRequiredError}. */
  command: string;
  /** interactive: the loopback redirect URI this authorization uses. */
  redirectUri?: string;
  /** interactive: where the authorization URL goes (opened or printed by the caller). */
  onAuthorizationUrl?: (url: URL) => void;
  /** Scopes the configuration asks for (`auth.scopes`), used when no challenge names any. */
  scopes?: string[];
  /** A pre-registered client (`auth.clientId`/`clientSecret`, or `--client-id`). */
  client?: ConfiguredClient;
  /** interactive: the `state` this authorization sends (kept with the verifier). */
  state?: string;
  /**
   * interactive: a client ID metadata document's HTTPS URL (setting
   * `oauth.clientMetadataUrl`), used as the client id where the authorization
   * server advertises `client_id_metadata_document_supported` (MCP 2025-11-25,
   * "Client ID Metadata Documents"); the SDK registers dynamically elsewhere.
   */
  clientMetadataUrl?: string;
}

/** Where a background provider says it would redirect: never opened, only registered. */
const PLACEHOLDER_REDIRECT = "http://127.0.0.1/callback";

/** The SDK's `OAuthClientProvider` over one token-store entry. */
export class StoreProvider implements OAuthClientProvider {
  readonly #options: StoreProviderOptions;
  /** The entry as last read, for `redirectUrl` and `clientMetadata` (synchronous getters). */
  #entry: OAuthStoreEntry | undefined;

  constructor(options: StoreProviderOptions, entry: OAuthStoreEntry | undefined) {
    this.#options = options;
    this.#entry = entry;
  }

  /** The entry now on disk, or a new empty one for this key. */
  async load(): Promise<OAuthStoreEntry> {
    this.#entry = await readEntry(this.#options.path) ?? { version: 1, ...this.#options.key };
    return this.#entry;
  }

  async #update(change: (entry: OAuthStoreEntry) => void): Promise<void> {
    const entry = await this.load();
    change(entry);
    await writeEntry(this.#options.path, entry);
  }

  get redirectUrl(): string {
    return this.#options.redirectUri ?? this.#entry?.redirectUri ?? PLACEHOLDER_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.#options.scopes?.length ? this.#options.scopes.join(" ") : undefined;
    return {
      client_name: "mcpx",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(scope ? { scope } : {}),
    };
  }

  /** A new random `state` (128 bits, hex), or the one this authorization was given. */
  state(): string {
    if (this.#options.state) return this.#options.state;
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const stored = (await this.load()).clientInformation;
    if (stored) return stored;
    const client = this.#options.client;
    return client
      ? {
        client_id: client.clientId,
        ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
      }
      : undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    await this.#update((entry) => {
      entry.clientInformation = info;
      if (this.#options.client) entry.configuredClient = true;
    });
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const now = Date.now();
    await this.#update((entry) => {
      entry.tokens = tokens;
      entry.savedAt = now;
      entry.expiresAt = expiryOf(tokens, now);
      delete entry.codeVerifier;
      delete entry.state;
      delete entry.challengedScope;
    });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.#options.mode === "background" || !this.#options.onAuthorizationUrl) {
      throw new AuthorizationRequiredError(
        this.#options.key.server,
        this.#options.command,
        (await this.load()).tokens ? "its tokens no longer work" : "mcpx holds no tokens for it",
      );
    }
    this.#options.onAuthorizationUrl(url);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    // A background flow never completes an authorization: what it would keep would only
    // overwrite a `mcpx auth --no-browser` waiting for its `--code`.
    if (this.#options.mode === "background") return;
    await this.#update((entry) => {
      entry.codeVerifier = codeVerifier;
      entry.redirectUri = this.redirectUrl;
      if (this.#options.state) entry.state = this.#options.state;
    });
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.load()).codeVerifier;
    if (!verifier) {
      throw new McpxError(
        "auth-state",
        `no authorization of server "${this.#options.key.server}" is waiting for a code: ` +
          `run \`${this.#options.command} --no-browser\` first, then pass its --code and --state`,
      );
    }
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.#update((entry) => {
      entry.discoveryState = state;
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.load()).discoveryState;
  }

  async invalidateCredentials(
    scope: "all" | "client" | "tokens" | "verifier" | "discovery",
  ): Promise<void> {
    await this.#update((entry) => {
      if (scope === "all" || scope === "client") delete entry.clientInformation;
      if (scope === "all" || scope === "tokens") {
        delete entry.tokens;
        delete entry.expiresAt;
      }
      if (scope === "all" || scope === "verifier") delete entry.codeVerifier;
      if (scope === "all" || scope === "discovery") delete entry.discoveryState;
    });
  }
}
