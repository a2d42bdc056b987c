/**
 * The bearer token an HTTP listener bound beyond loopback requires
 * (`Authorization: Bearer <token>`, RFC 6750 §2.1), checked in constant time.
 *
 * @module
 */

import { createHash, timingSafeEqual } from "node:crypto";

/** The setting that holds the token (config/settings.ts). */
export const BEARER_TOKEN_SETTING = "transport.bearerToken";

/** The variable that carries it to scripts and to mcpx commands they run. */
export const BEARER_TOKEN_VARIABLE = "MCPX_TRANSPORT_BEARER_TOKEN";

/**
 * Whether the request's `Authorization` header carries `token` as a bearer
 * token. Both sides are hashed (SHA-256) first and the digests compared with
 * `timingSafeEqual`, so the time taken says nothing about how much of the
 * token matched, not even its length.
 *
 * @param authorization The header's value, or null when absent.
 * @param token The expected token (non-empty).
 * @returns False when the header is absent, not `Bearer …`, or another token.
 * @throws {TypeError} when `token` is empty (a listener must never accept an empty token).
 */
export function bearerMatches(authorization: string | null, token: string): boolean {
  if (!token) throw new TypeError("the expected bearer token is empty");
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? "");
  const given = m ? m[1] : "";
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  // Compared even when absent, so an absent header costs what a wrong one costs.
  const same = timingSafeEqual(digest(given), digest(token));
  return m !== null && same;
}
