/**
 * A server's OAuth target: where its tokens are in the token store
 * (engine/oauth_store.ts), the command that authorizes it, and what the entry
 * says of its client and scopes (spec 002). The session
 * (engine/oauth_session.ts), the refresh (engine/oauth_refresh.ts) and the
 * browser flow (engine/oauth_flow.ts) all act on one.
 *
 * @module
 */

import type { ServerSpec } from "../config/types.ts";
import type { OAuthStoreKey } from "./oauth_store.ts";
import type { ConfiguredClient } from "./oauth_provider.ts";
import { join } from "../core/posix_path.ts";
import { oauthOf } from "../config/auth.ts";

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
