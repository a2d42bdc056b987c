/**
 * The configuration fingerprint: keys the daemon's socket and the schema cache,
 * so a different config gets a different daemon and an edited one a new daemon.
 *
 * Source: spec 000, "One daemon per config": a fingerprint of the config path
 * plus its bytes.
 *
 * @module
 */

// WebCrypto rather than node:crypto: loading node:crypto costs every CLI run
// ~25 ms of start-up (measured), more than the whole warm `mcpx ls` budget.

/** The fingerprint used when no configuration file exists: SHA-256 of `"no config"`, 16 hex. */
export const NO_CONFIG_FINGERPRINT = "8ad2e3a7209f33e0";

/**
 * Fingerprints a configuration from its real path and bytes. Pure.
 *
 * @param realPath The file's path with symlinks resolved, or null for "no configuration".
 * @param bytes The file's contents (ignored when `realPath` is null).
 * @returns 16 hex chars of SHA-256(`realPath` + `"\0"` + bytes), or
 *   {@link NO_CONFIG_FINGERPRINT}.
 * @example
 * ```ts
 * import { fingerprintOf } from "./fingerprint.ts";
 * const a = await fingerprintOf("/p/.mcp.json", new TextEncoder().encode("{}"));
 * if (a.length !== 16) throw new Error();
 * ```
 */
export async function fingerprintOf(realPath: string | null, bytes: Uint8Array): Promise<string> {
  if (realPath === null) return NO_CONFIG_FINGERPRINT;
  const head = new TextEncoder().encode(`${realPath}\0`);
  const input = new Uint8Array(head.length + bytes.length);
  input.set(head);
  input.set(bytes, head.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", input));
  return [...digest.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A configuration file as read for fingerprinting. */
export interface FingerprintedFile {
  /** The path with symlinks resolved. */
  realPath: string;
  /** The bytes that were hashed (so a caller parses exactly what was fingerprinted). */
  bytes: Uint8Array;
  /** 16 hex chars; see {@link fingerprintOf}. */
  fingerprint: string;
}

/**
 * Resolves `path`'s symlinks, reads it, and fingerprints it.
 *
 * @param path A configuration file.
 * @param options `signal` aborts before reading.
 * @returns `{ realPath, bytes, fingerprint }`.
 * @throws {Deno.errors.NotFound} And other filesystem errors, unchanged.
 * @throws {DOMException} `AbortError` when `signal` is already aborted.
 * @example
 * ```ts
 * import { fingerprintFile } from "./fingerprint.ts";
 * const tmp = await Deno.makeTempFile();
 * const { fingerprint } = await fingerprintFile(tmp);
 * await Deno.remove(tmp);
 * if (fingerprint.length !== 16) throw new Error();
 * ```
 */
export async function fingerprintFile(
  path: string,
  options: { signal?: AbortSignal } = {},
): Promise<FingerprintedFile> {
  options.signal?.throwIfAborted();
  const realPath = await Deno.realPath(path);
  const bytes = await Deno.readFile(realPath, { signal: options.signal });
  return { realPath, bytes, fingerprint: await fingerprintOf(realPath, bytes) };
}
