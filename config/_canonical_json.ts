/**
 * JSON with object keys sorted at every depth, so equal values hash equally
 * whatever order a file wrote them in. Private to config/.
 *
 * @module
 */

import { setOwn } from "../core/own.ts";

/**
 * Serialises `value` as JSON with sorted object keys; `undefined` members are dropped.
 *
 * @param value Any JSON-compatible value.
 * @returns Compact JSON text.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) setOwn(out, key, sortKeys(v));
    }
    return out;
  }
  return value;
}
