/**
 * The configuration fingerprint: keys the daemon's socket and the schema cache,
 * so a different config gets a different daemon, an edited one a new daemon,
 * and so does the same file under different values of the variables it names
 * in `${…}` (a changed token must not reach a daemon started with the old one).
 *
 * Source: spec 000, "One daemon per config": a fingerprint of the config path
 * plus its bytes; the referenced variables are added because their values are
 * part of what the daemon's servers were started with.
 *
 * @module
 */

// WebCrypto rather than node:crypto: loading node:crypto costs every CLI run
// ~25 ms of start-up (measured), more than the whole warm `mcpx ls` budget.

import { readConfigBytes } from "./config_file.ts";
import { referencedVariables } from "./compiled.ts";
import { own } from "../core/own.ts";

/** The fingerprint used when no configuration file exists: SHA-256 of `"no config"`, 16 hex. */
export const NO_CONFIG_FINGERPRINT = "8ad2e3a7209f33e0";

const encoder = new TextEncoder();

async function hash16(parts: Uint8Array[]): Promise<string> {
  const input = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    input.set(part, at);
    at += part.length;
  }
  const known = recentHashes.find((h) => sameBytes(h.input, input));
  if (known) return known.hash;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", input));
  const hash = [...digest.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  recentHashes.unshift({ input, hash });
  recentHashes.length = Math.min(recentHashes.length, RECENT_HASHES);
  return hash;
}

/**
 * The last few inputs hashed and their hashes: a process that serves many
 * commands (`mcpx serve`, the front) reads the same configuration for each,
 * and comparing its bytes costs a fraction of an asynchronous digest
 * (measured in serve: two digests were ~5 % of its CPU per call).
 */
const recentHashes: { input: Uint8Array; hash: string }[] = [];
const RECENT_HASHES = 8;
/** Inputs larger than this are not compared against the recent ones (bytes). */
const COMPARED_BYTES = 1 << 20;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length || a.length > COMPARED_BYTES) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Hashes a configuration's real path and bytes only, without the environment: the same
 * file gives the same value whatever the variables hold. Pure.
 *
 * @param realPath The file's path with symlinks resolved, or null for "no configuration".
 * @param bytes The file's contents (ignored when `realPath` is null).
 * @returns 16 hex chars of SHA-256(`realPath` + `"\0"` + bytes), or
 *   {@link NO_CONFIG_FINGERPRINT}.
 * @example
 * ```ts
 * import { contentHashOf } from "./fingerprint.ts";
 * const a = await contentHashOf("/p/.mcp.json", new TextEncoder().encode("{}"));
 * if (a.length !== 16) throw new Error();
 * ```
 */
export async function contentHashOf(realPath: string | null, bytes: Uint8Array): Promise<string> {
  if (realPath === null) return NO_CONFIG_FINGERPRINT;
  return await hash16([encoder.encode(`${realPath}\0`), bytes]);
}

/**
 * Fingerprints a configuration from its real path, its bytes and the values of the
 * variables its text names in `${…}` (see `referencedVariables()` in compiled.ts).
 * Variables the text does not name do not matter. Pure.
 *
 * @param realPath The file's path with symlinks resolved, or null for "no configuration".
 * @param bytes The file's contents (ignored when `realPath` is null).
 * @param env The environment the configuration is expanded with.
 * @returns 16 hex chars of SHA-256(`realPath` `\0` bytes `\0` then, sorted by name,
 *   `NAME=value\0` for each referenced variable that is set and `NAME\0` for one that is
 *   unset), or {@link NO_CONFIG_FINGERPRINT}.
 * @example
 * ```ts
 * import { fingerprintOf } from "./fingerprint.ts";
 * const text = new TextEncoder().encode(`{ "x": "\${T}" }`);
 * const a = await fingerprintOf("/p/.mcp.json", text, { T: "1" });
 * const b = await fingerprintOf("/p/.mcp.json", text, { T: "2" });
 * if (a.length !== 16 || a === b) throw new Error();
 * ```
 */
export async function fingerprintOf(
  realPath: string | null,
  bytes: Uint8Array,
  env: Record<string, string | undefined>,
): Promise<string> {
  if (realPath === null) return NO_CONFIG_FINGERPRINT;
  const names = referencedVariables(new TextDecoder().decode(bytes)).sort();
  // A variable name holds no `=` or NUL and a value no NUL, so each entry reads one way.
  const variables = names.map((name) => {
    const value = own(env, name);
    return value === undefined ? `${name}\0` : `${name}=${value}\0`;
  }).join("");
  return await hash16([encoder.encode(`${realPath}\0`), bytes, encoder.encode(`\0${variables}`)]);
}

/** A configuration file as read for fingerprinting. */
export interface FingerprintedFile {
  /** The path with symlinks resolved. */
  realPath: string;
  /** The bytes that were hashed (so a caller parses exactly what was fingerprinted). */
  bytes: Uint8Array;
  /** 16 hex chars; see {@link fingerprintOf}. */
  fingerprint: string;
  /** 16 hex chars of the path and bytes only; see {@link contentHashOf}. */
  contentHash: string;
}

/**
 * Resolves `path`'s symlinks, reads it, and fingerprints it.
 *
 * @param path A configuration file.
 * @param options `env` the configuration is expanded with; `signal` aborts before reading.
 * @returns `{ realPath, bytes, fingerprint, contentHash }`.
 * @throws {Deno.errors.NotFound} And other filesystem errors, unchanged.
 * @throws {DOMException} `AbortError` when `signal` is already aborted.
 * @example
 * ```ts
 * import { fingerprintFile } from "./fingerprint.ts";
 * const tmp = await Deno.makeTempFile();
 * const { fingerprint } = await fingerprintFile(tmp, { env: {} });
 * await Deno.remove(tmp);
 * if (fingerprint.length !== 16) throw new Error();
 * ```
 */
export async function fingerprintFile(
  path: string,
  options: { env: Record<string, string | undefined>; signal?: AbortSignal },
): Promise<FingerprintedFile> {
  options.signal?.throwIfAborted();
  // Only a regular file, and a bounded read: never a device or a pipe read forever.
  const bytes = await readConfigBytes(path, options.signal);
  const realPath = Deno.realPathSync(path);
  return {
    realPath,
    bytes,
    fingerprint: await fingerprintOf(realPath, bytes, options.env),
    contentHash: await contentHashOf(realPath, bytes),
  };
}
