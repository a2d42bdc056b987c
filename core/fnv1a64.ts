/**
 * The 64-bit FNV-1a hash, the short stable digest mcpx names things by: pool
 * and listing ids (config/pool_id.ts, config/types.ts), schema cache files
 * (engine/schema_cache.ts), block keys (discovery/block_key.ts). Not for
 * secrets: it is fast and short, not collision-resistant.
 *
 * Source: FNV, Fowler/Noll/Vo (draft-eastlake-fnv).
 *
 * @module
 */

/**
 * FNV-1a, 64-bit, over the UTF-16 code units of `text`, as 16 hex chars.
 *
 * Computed in four 16-bit limbs with plain numbers: the same value as 64-bit
 * BigInt arithmetic (`fnv1a64BigInt` in fnv1a64_test.ts holds it to that), about
 * ten times faster, which counts when a configuration has thousands of servers.
 * The prime 0x100000001b3 is 2⁴⁰ + 0x1b3: limb 0 is 0x1b3, limb 2 is 0x100.
 *
 * @example
 * ```ts
 * import { fnv1a64 } from "./fnv1a64.ts";
 * // The published FNV-1a 64 test vector for "a".
 * if (fnv1a64("a") !== "af63dc4c8601ec8c") throw new Error();
 * ```
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
