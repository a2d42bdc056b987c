/**
 * Reading pool keys (sharing, scope, max, min, idleTimeout, callTimeout,
 * startTimeout, firstStartTimeout, leaseTimeout, whenFull, resetTimeoutOnProgress) from a top-level `pool` block or a
 * server's `mcpx` block.
 * Private to config/.
 *
 * Source: spec 000, "Sharing and scope" and "Configuration" (a top-level pool
 * block applies any of them to every server; the server's own block wins).
 *
 * @module
 */

import { DURATION_FORMS, DurationError, parseDuration } from "./duration.ts";
import {
  type PoolSettings,
  type Scope,
  SCOPES,
  type Sharing,
  SHARINGS,
  WHEN_FULLS,
  type WhenFull,
} from "./types.ts";
import { describeValue } from "./_describe.ts";
import type { JsonPath, Problems } from "./_problems.ts";
import { didYouMean } from "./_suggest.ts";

/** The keys a `pool` block and an `mcpx` block share. */
export const POOL_KEYS: readonly string[] = [
  "sharing",
  "scope",
  "max",
  "min",
  "idleTimeout",
  "callTimeout",
  "startTimeout",
  "firstStartTimeout",
  "leaseTimeout",
  "whenFull",
  "resetTimeoutOnProgress",
];

const DURATIONS = {
  idleTimeout: "idleTimeoutMs",
  callTimeout: "callTimeoutMs",
  startTimeout: "startTimeoutMs",
  firstStartTimeout: "firstStartTimeoutMs",
  leaseTimeout: "leaseTimeoutMs",
} as const;

/**
 * Reads the pool keys present in `block`, recording a problem for each bad value.
 * Keys not in {@link POOL_KEYS} are ignored (the caller checks unknown keys).
 *
 * @param block The `pool` or `mcpx` object.
 * @param path Its JSON path, e.g. `["mcpServers", "fs", "mcpx"]`.
 * @param problems Where problems go.
 * @returns The valid settings that were present.
 */
export function readPoolKeys(
  block: Record<string, unknown>,
  path: JsonPath,
  problems: Problems,
): Partial<PoolSettings> {
  const out: Partial<PoolSettings> = {};
  const has = (key: string) => Object.hasOwn(block, key);
  if (has("sharing")) {
    const v = block.sharing;
    if (typeof v === "string" && (SHARINGS as readonly string[]).includes(v)) {
      out.sharing = v as Sharing;
    } else {
      problems.add(
        [...path, "sharing"],
        `must be "shared" or "exclusive", got ${describeValue(v)}${
          typeof v === "string" ? didYouMean(v, SHARINGS) : ""
        }; use "exclusive" for a server that holds per-caller state, else "shared"`,
      );
    }
  }
  if (has("scope")) {
    const v = block.scope;
    if (typeof v === "string" && (SCOPES as readonly string[]).includes(v)) {
      out.scope = v as Scope;
    } else {
      problems.add(
        [...path, "scope"],
        `must be one of ${SCOPES.map((s) => `"${s}"`).join(", ")}, got ${describeValue(v)}${
          typeof v === "string" ? didYouMean(v, SCOPES) : ""
        }; pick what one instance is keyed by`,
      );
    }
  }
  if (has("max")) {
    const v = block.max;
    if (Number.isSafeInteger(v) && (v as number) >= 1) out.max = v as number;
    else {
      problems.add(
        [...path, "max"],
        `must be a whole number ≥ 1, got ${describeValue(v)}; set the most instances ` +
          `allowed at once, e.g. 1`,
      );
    }
  }
  if (has("min")) {
    const v = block.min;
    if (Number.isSafeInteger(v) && (v as number) >= 0) out.min = v as number;
    else {
      problems.add(
        [...path, "min"],
        `must be a whole number ≥ 0, got ${describeValue(v)}; set how many instances to keep ` +
          `warm, e.g. 0`,
      );
    }
  }
  if (has("whenFull")) {
    const v = block.whenFull;
    if (typeof v === "string" && (WHEN_FULLS as readonly string[]).includes(v)) {
      out.whenFull = v as WhenFull;
    } else {
      problems.add(
        [...path, "whenFull"],
        `must be "evict-idle" or "wait", got ${describeValue(v)}${
          typeof v === "string" ? didYouMean(v, WHEN_FULLS) : ""
        }; "evict-idle" makes room by stopping the least recently used idle instance`,
      );
    }
  }
  if (has("resetTimeoutOnProgress")) {
    const v = block.resetTimeoutOnProgress;
    if (typeof v === "boolean") out.resetTimeoutOnProgress = v;
    else {
      problems.add(
        [...path, "resetTimeoutOnProgress"],
        `must be true or false, got ${describeValue(v)}; write true to let a call that ` +
          `reports progress run past callTimeout while progress arrives`,
      );
    }
  }
  for (const [key, field] of Object.entries(DURATIONS)) {
    if (!has(key)) continue;
    try {
      out[field] = parseDuration(block[key]);
    } catch (error) {
      // The format's problem or the limit's, never both (config/duration.ts).
      const refused = error instanceof DurationError ? error : undefined;
      problems.add(
        [...path, key],
        `must be ${refused?.requirement ?? DURATION_FORMS}, got ${describeValue(block[key])}; ${
          refused?.fix ?? `write ${DURATION_FORMS}`
        }`,
      );
    }
  }
  return out;
}
