/**
 * One row of `mcpx status`, built the same way by the daemon (with its live
 * instances and start failures) and by the CLI when no daemon runs (from the
 * schema cache alone). Imports nothing heavy: the CLI loads it.
 *
 * @module
 */

import type { ServerSpec } from "../config/types.ts";
import type { CachedServer } from "../discovery/types.ts";
import { lastFailure } from "../discovery/cache_entry.ts";

/** One row of `mcpx status`. */
export interface StatusRow {
  namespace: string;
  server: string;
  poolId: string;
  transport: string;
  sharing: string;
  scope: string;
  state: "live" | "idle" | "error" | "disabled";
  instances: {
    id: string;
    pid?: number;
    key: string;
    holders: number;
    active: number;
    uptimeMs: number;
    calls: number;
    lastError?: string;
    stderrTail?: string;
  }[];
  failure?: { message: string; count: number; retryInMs: number; stderrTail?: string };
  cacheError?: { message: string; at: string; stderr?: string };
}

/**
 * The row for `spec`: the cache's current failure, plus what a daemon knows
 * (live instances, a start failure) when it is the caller.
 */
export function statusRow(
  spec: ServerSpec,
  cached: CachedServer | undefined,
  live: Pick<StatusRow, "instances" | "failure"> = { instances: [] },
): StatusRow {
  const cacheError = lastFailure(cached);
  const { instances, failure } = live;
  return {
    namespace: spec.namespace,
    server: spec.name,
    poolId: spec.poolId,
    transport: spec.transport,
    sharing: spec.pool.sharing,
    scope: spec.pool.scope,
    state: spec.disabled
      ? "disabled"
      : failure || (cacheError && instances.length === 0)
      ? "error"
      : instances.length
      ? "live"
      : "idle",
    instances,
    ...(failure ? { failure } : {}),
    ...(cacheError ? { cacheError } : {}),
  };
}
