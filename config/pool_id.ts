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

import { listingFields, type ServerSpec } from "./types.ts";
import { canonicalJson } from "./_canonical_json.ts";
import { fnv1a64 } from "../core/fnv1a64.ts";

/** The fields of a server that decide its pool. Everything else is presentation. */
export type PoolIdentity = Pick<
  ServerSpec,
  | "transport"
  | "command"
  | "args"
  | "env"
  | "cwd"
  | "url"
  | "headers"
  | "auth"
  | "pool"
  | "protocol"
  | "roots"
>;

/**
 * Hashes the pool identity of a server (after `${VAR}` expansion and pool defaults).
 * Key order in `env`, `headers` and `pool` does not matter; argument order does.
 * The entry's own protocol mode is hashed only when it sets one (two processes
 * of one program in different eras are two pools; decision 0031), and its
 * roots only when it has some (an instance keeps the roots it started with; decision 0036),
 * and its `auth` block only when it has one (two entries differing only in their
 * credentials are two pools; decision 0041). The hash is all an id carries of a
 * secret: no credential is written into an id or a file name in clear.
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
  const { pool, roots } = identity;
  // The keys are sorted: the same text as listing every field here in any order.
  const text = canonicalJson({ ...listingFields(identity), pool, ...(roots ? { roots } : {}) });
  return fnv1a64(text);
}
