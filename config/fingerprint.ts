/**
 * The configuration fingerprint: keys the daemon's socket and the schema cache,
 * so a different config gets a different daemon and an edited one a new daemon.
 *
 * Source: spec 000, "One daemon per config": a fingerprint of the config path
 * plus its bytes.
 *
 * @module
 */

import { createHash } from "node:crypto";

/** The fingerprint used when no configuration file exists: SHA-256 of `"no config"`, 16 hex. */
export const NO_CONFIG_FINGERPRINT: string = createHash("sha256").update("no config").digest(
  "hex",
).slice(0, 16);

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
 * const a = fingerprintOf("/p/.mcp.json", new TextEncoder().encode("{}"));
 * if (a.length !== 16) throw new Error();
 * ```
 */
export function fingerprintOf(realPath: string | null, bytes: Uint8Array): string {
  if (realPath === null) return NO_CONFIG_FINGERPRINT;
  return createHash("sha256").update(realPath).update("\0").update(bytes).digest("hex").slice(
    0,
    16,
  );
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
  return { realPath, bytes, fingerprint: fingerprintOf(realPath, bytes) };
}
