/**
 * SHA-256 of a text, as the trust hashes, the script client's stamp and the
 * `exec` cache name it: the hex digest of the text's UTF-8 bytes (WebCrypto
 * `crypto.subtle.digest`, FIPS 180-4).
 *
 * @module
 */

/**
 * SHA-256 of `text`'s UTF-8 bytes.
 *
 * @returns 64 lowercase hex characters.
 * @example
 * ```ts
 * import { sha256Hex } from "./sha256.ts";
 * const digest = await sha256Hex("");
 * if (!digest.startsWith("e3b0c442")) throw new Error(digest);
 * ```
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
