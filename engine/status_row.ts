/**
 * One row of `mcpx status`, built the same way by the daemon (with its live
 * instances and start failures) and by the CLI when no daemon runs (from the
 * schema cache alone). Imports nothing heavy: the CLI loads it.
 *
 * @module
 */

import type { ServerSpec, ServerUnavailable } from "../config/types.ts";
import type { IndexedServer } from "../discovery/types.ts";
import { lastFailure } from "../discovery/cache_entry.ts";
import type { Redactor } from "../core/redact.ts";

/** One row of `mcpx status`. */
export interface StatusRow {
  namespace: string;
  server: string;
  poolId: string;
  transport: string;
  sharing: string;
  scope: string;
  /**
   * `untrusted`: a project's configuration has not trusted what the server
   * runs, so it is not started (config/trust.ts); `unavailable` says how to trust it.
   * `refused`: it would be `idle`, but the daemon's socket directory is
   * refused (wire/wire.ts `checkSocketDir`), so no daemon can run it (ops/status.ts).
   */
  state: "live" | "idle" | "starting" | "error" | "disabled" | "untrusted" | "refused";
  instances: {
    id: string;
    pid?: number;
    key: string;
    holders: number;
    active: number;
    uptimeMs: number;
    calls: number;
    /** The protocol revision agreed with the server (engine/instance.ts `protocolRevision`). */
    protocol?: string;
    lastError?: string;
    stderrTail?: string;
  }[];
  failure?: { message: string; count: number; retryInMs: number; stderrTail?: string };
  cacheError?: { message: string; at: string; stderr?: string; count?: number; retryAt?: string };
  /**
   * Why the configuration keeps this server from starting: an unset `${VAR}`
   * (the row's state is `error`), or a project's file that has not trusted it
   * (`untrusted`); config/types.ts `ServerSpec.unavailable`.
   */
  unavailable?: ServerUnavailable;
  /**
   * A start in progress (state `starting` while no instance is live; decision
   * 0010): how long it has run and may run, in ms, and the setting behind that.
   */
  starting?: {
    elapsedMs: number;
    allowanceMs: number;
    bound: "startTimeout" | "firstStartTimeout";
    phase?: "installing" | "starting";
  };
  /**
   * The other namespaces served by this row's pool (an alias and its target
   * with the same leasing share one `poolId`): `instances` are theirs too.
   */
  sharedWith?: string[];
}

/**
 * Sets `sharedWith` on every row whose pool also serves other namespaces that
 * are not disabled (spec 000, "Profiles and aliases": one process, several names).
 *
 * @param rows Rows of `mcpx status`, one per server.
 * @returns The same rows, changed in place.
 * @example
 * ```ts
 * import { markSharedPools, type StatusRow } from "./status_row.ts";
 * const row = (namespace: string): StatusRow => ({
 *   namespace, server: namespace, poolId: "p", transport: "stdio", sharing: "shared",
 *   scope: "global", state: "idle", instances: [],
 * });
 * const [a] = markSharedPools([row("a"), row("b")]);
 * if (a.sharedWith?.[0] !== "b") throw new Error();
 * ```
 */
export function markSharedPools(rows: StatusRow[]): StatusRow[] {
  for (const row of rows) {
    if (row.state === "disabled") continue;
    const others = rows.filter((o) =>
      o !== row && o.poolId === row.poolId && o.state !== "disabled"
    );
    if (others.length) row.sharedWith = others.map((o) => o.namespace);
  }
  return rows;
}

/** A start in progress as {@link statusRow} takes it (engine/starting.ts `startInProgress`). */
export type StatusStart = NonNullable<StatusRow["starting"]>;

/**
 * The row for `spec`: the cache's current failure, plus what a daemon knows
 * (live instances, a start failure) when it is the caller.
 *
 * @param redactor Applied to the whole row (core/redact.ts): a failure's
 *   message and stderr tail may echo a configured secret, shown as its
 *   reference. The daemon's rows are also redacted on the wire; the CLI
 *   passes its own for rows it builds from the cache.
 */
export function statusRow(
  spec: ServerSpec,
  cached: IndexedServer | undefined,
  live: Pick<StatusRow, "instances" | "failure"> & { starting?: StatusStart } = { instances: [] },
  redactor?: Redactor,
): StatusRow {
  const row = buildRow(spec, cached, live);
  return redactor ? redactor.json(row) : row;
}

function buildRow(
  spec: ServerSpec,
  cached: IndexedServer | undefined,
  live: Pick<StatusRow, "instances" | "failure"> & { starting?: StatusStart },
): StatusRow {
  const cacheError = lastFailure(cached);
  const { instances, failure } = live;
  // A start under way (decision 0010): its facts, not whose it is (the row says that).
  const starting = live.starting && {
    elapsedMs: live.starting.elapsedMs,
    allowanceMs: live.starting.allowanceMs,
    bound: live.starting.bound,
    ...(live.starting.phase ? { phase: live.starting.phase } : {}),
  };
  return {
    namespace: spec.namespace,
    server: spec.name,
    poolId: spec.poolId,
    transport: spec.transport,
    sharing: spec.pool.sharing,
    scope: spec.pool.scope,
    state: spec.disabled
      ? "disabled"
      : spec.unavailable?.code === "untrusted"
      ? "untrusted"
      : spec.unavailable
      ? "error"
      : starting && instances.length === 0
      ? "starting"
      : failure || (cacheError && instances.length === 0)
      ? "error"
      : instances.length
      ? "live"
      : "idle",
    instances,
    ...(failure ? { failure } : {}),
    ...(cacheError ? { cacheError } : {}),
    ...(starting && !spec.disabled ? { starting } : {}),
    ...(spec.unavailable && !spec.disabled ? { unavailable: spec.unavailable } : {}),
  };
}
