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

/**
 * FNV-1a, 64-bit, over the UTF-16 code units of `text`, as 16 hex chars.
 *
 * Computed in four 16-bit limbs with plain numbers: the same value as 64-bit
 * BigInt arithmetic (`fnv1a64BigInt` in pool_id_test.ts holds it to that), about
 * ten times faster, which counts when a configuration has thousands of servers.
 * The prime 0x100000001b3 is 2⁴⁰ + 0x1b3: limb 0 is 0x1b3, limb 2 is 0x100.
 */
export function fnv1a64(text: string): string {
  // Offset basis 0xcbf29ce484222325, low limb first.
  let h0 = 0x2325, h1 = 0x8422, h2 = 0x9ce4, h3 = 0xcbf2;
  for (let i = 0; i < text.length; i++) {
    h0 ^= text.charCodeAt(i);
    // (h · 0x1b3) + (h · 0x100 shifted by two limbs), mod 2⁶⁴, carrying between limbs.
    const r0 = h0 * 0x1b3;
    const r1 = h1 * 0x1b3 + (r0 >>> 16);
    const r2 = h2 * 0x1b3 + h0 * 0x100 + Math.floor(r1 / 0x10000);
    const r3 = h3 * 0x1b3 + h1 * 0x100 + Math.floor(r2 / 0x10000);
    h0 = r0 & 0xffff;
    h1 = r1 & 0xffff;
    h2 = r2 & 0xffff;
    h3 = r3 & 0xffff;
  }
  const hex = (limb: number) => limb.toString(16).padStart(4, "0");
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}
