/**
 * Pool identity: two server entries share a pool (and so processes) exactly
 * when everything that changes the process or how it is handed out is equal.
 *
 * Source: spec 000, "Profiles and aliases": pool identity covers the command,
 * arguments, environment, working directory, transport, sharing, scope, maxima
 * and timeouts; tool filtering is not in it, because filtering is presentation.
 *
 * @module
 */

import type { ServerSpec } from "./types.ts";
import { canonicalJson } from "./_canonical_json.ts";

/** The fields of a server that decide its pool. Everything else is presentation. */
export type PoolIdentity = Pick<
  ServerSpec,
  "transport" | "command" | "args" | "env" | "cwd" | "url" | "headers" | "pool"
>;

/**
 * Hashes the pool identity of a server (after `${VAR}` expansion and pool defaults).
 * Key order in `env`, `headers` and `pool` does not matter; argument order does.
 *
 * @param identity The identity fields; extra properties (name, namespace, tags, tool
 *   filters, description) are ignored, so a whole `ServerSpec` may be passed.
 * @returns 16 hex chars: FNV-1a (64-bit) of the canonical JSON. Not a security
 *   boundary, only an identity inside one daemon; a sync hash with no node:crypto
 *   keeps the CLI's start-up fast.
 * @example
 * ```ts
 * import { poolId } from "./pool_id.ts";
 * import { DEFAULT_POOL } from "./types.ts";
 * const id = poolId({ transport: "stdio", command: "npx", args: [], env: {}, headers: {}, pool: DEFAULT_POOL });
 * if (!/^[0-9a-f]{16}$/.test(id)) throw new Error();
 * ```
 */
export function poolId(identity: PoolIdentity): string {
  const { transport, command, args, env, cwd, url, headers, pool } = identity;
  const text = canonicalJson({ transport, command, args, env, cwd, url, headers, pool });
  return fnv1a64(text);
}

/** FNV-1a, 64-bit, over the UTF-16 code units of `text`, as 16 hex chars. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}
