/**
 * Server starts in progress, as the `starting` operation reports them: what
 * the CLI shows on a terminal while a command waits for a first start
 * ("starting everything, memory: 12 s, npx is installing…"), and what `mcpx
 * status` can show (cli/discovery/start_progress.ts).
 *
 * @module
 */

import { basename } from "../core/posix_path.ts";
import type { StartingListing } from "../discovery/types.ts";

/** The setting a start allowance came from. */
export type StartBound = "startTimeout" | "firstStartTimeout";

/** The time a start may take, and the setting that grants it. */
export interface StartAllowance {
  /** In ms. */
  ms: number;
  bound: StartBound;
}

/** What a start in progress is known to be doing. */
export type StartPhase = "installing" | "starting";

/** One start in progress. */
export interface StartingRow {
  /** The `mcpServers` key. */
  server: string;
  namespace: string;
  /** The scope key the instance will serve. */
  key: string;
  /** Time since the start began, in ms. */
  elapsedMs: number;
  /** The start allowance, in ms. */
  allowanceMs: number;
  /** The setting that sets `allowanceMs`. */
  bound: StartBound;
  /** The server process (stdio only). */
  pid?: number;
  /**
   * `installing` while a package runner (`npx`) has not started the server
   * yet, i.e. it is still downloading or unpacking the package; else `starting`.
   */
  phase: StartPhase;
  /** The package runner, when the command is one (`npx`). */
  runner?: string;
}

/** What the registry needs to know about a starting instance. */
export interface StartingInstance {
  readonly spec: { name: string; namespace: string; command?: string };
  readonly key: string;
  readonly startedAt: number;
  readonly startAllowance: StartAllowance;
  readonly pid?: number;
}

/**
 * Package runners whose first run installs the package in-process and only
 * then starts it as a child: while the runner has no child process, it is
 * installing. (npm 7+ `npx` runs the package's bin through `sh -c`.)
 */
const CHILD_STARTING_RUNNERS = new Set(["npx"]);

/** The starts in progress in one daemon. Instances add themselves while they start. */
export class StartingInstances {
  #now = new Set<StartingInstance>();

  /** Adds `instance` until the returned function is called. */
  add(instance: StartingInstance): () => void {
    this.#now.add(instance);
    return () => this.#now.delete(instance);
  }

  /** How many starts are in progress. */
  get size(): number {
    return this.#now.size;
  }

  /** One row per start in progress, oldest first. */
  rows(now = Date.now()): StartingRow[] {
    return [...this.#now].sort((a, b) => a.startedAt - b.startedAt).map((i) => {
      const runner = i.spec.command ? basename(i.spec.command) : undefined;
      const isRunner = runner !== undefined && CHILD_STARTING_RUNNERS.has(runner);
      const installing = isRunner && i.pid !== undefined && hasNoChildren(i.pid);
      return {
        server: i.spec.name,
        namespace: i.spec.namespace,
        key: i.key,
        elapsedMs: Math.max(0, now - i.startedAt),
        allowanceMs: i.startAllowance.ms,
        bound: i.startAllowance.bound,
        ...(i.pid !== undefined ? { pid: i.pid } : {}),
        phase: installing ? "installing" : "starting",
        ...(isRunner ? { runner } : {}),
      };
    });
  }
}

/**
 * True when process `pid` is alive and has no child process. Reads Linux's
 * `/proc/<pid>/task/<pid>/children`; false wherever that cannot be read
 * (another OS, a gone process), so the phase falls back to `starting`.
 */
export function hasNoChildren(pid: number): boolean {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`).trim() === "";
  } catch {
    return false;
  }
}

/**
 * The start allowance of a server: `startTimeout` once it has listed
 * successfully under its current `poolId`; before that (its first start,
 * which may include `npx -y` downloading it) the larger of
 * `firstStartTimeout` and `startTimeout`, named after whichever it is.
 *
 * @param pool The server's pool settings (ms).
 * @param listed Whether the schema cache has a successful listing for the server's `poolId`.
 * @example
 * ```ts
 * import { startAllowance } from "./starting.ts";
 * const pool = { startTimeoutMs: 30_000, firstStartTimeoutMs: 300_000 };
 * if (startAllowance(pool, false).bound !== "firstStartTimeout") throw new Error();
 * if (startAllowance(pool, true).ms !== 30_000) throw new Error();
 * ```
 */
export function startAllowance(
  pool: { startTimeoutMs: number; firstStartTimeoutMs: number },
  listed: boolean,
): StartAllowance {
  if (listed || pool.startTimeoutMs >= pool.firstStartTimeoutMs) {
    return { ms: pool.startTimeoutMs, bound: "startTimeout" };
  }
  return { ms: pool.firstStartTimeoutMs, bound: "firstStartTimeout" };
}

/**
 * Whether a schema-cache entry records a successful listing under `listingId`
 * (config/types.ts `listingOf`); an entry written before listing identities
 * were recorded counts, since the program it listed has run on this machine.
 */
export function listedUnder(
  entry: { listedAt?: string; listingId?: string } | undefined,
  listingId: string,
): boolean {
  return Boolean(entry?.listedAt) &&
    (entry!.listingId === undefined || entry!.listingId === listingId);
}

/**
 * What discovery and `status` show of a server while its start (or a listing
 * waiting for one) is in progress (decision 0010): how long, the allowance and
 * its setting, and whether `npx` is installing. Undefined when neither is.
 *
 * @param spec The server (its `pool` settings give the allowance when no start is under way yet).
 * @param state.listingSince When its listing in progress began (epoch ms), if one is.
 * @param state.listed Whether it has listed under its current `poolId` ({@link listedUnder}).
 * @param state.rows The daemon's starts in progress ({@link StartingInstances.rows}).
 * @param state.now Epoch ms.
 */
export function startInProgress(
  spec: {
    name: string;
    namespace: string;
    pool: { startTimeoutMs: number; firstStartTimeoutMs: number };
  },
  state: { listingSince?: number; listed: boolean; rows: StartingRow[]; now: number },
): StartingListing | undefined {
  const start = state.rows.find((r) => r.server === spec.name);
  const since = state.listingSince ?? (start ? state.now - start.elapsedMs : undefined);
  if (since === undefined) return undefined;
  const allowance = startAllowance(spec.pool, state.listed);
  return {
    server: spec.name,
    namespace: spec.namespace,
    elapsedMs: Math.max(0, state.now - since),
    allowanceMs: start?.allowanceMs ?? allowance.ms,
    bound: start?.bound ?? allowance.bound,
    ...(start ? { phase: start.phase } : {}),
  };
}
