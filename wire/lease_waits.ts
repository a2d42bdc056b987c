/**
 * What a waiting caller hears while it waits: the daemon's `waits` operation
 * reports each lease wait (a call waiting for an instance others hold) under
 * the caller's token (its run id, or the `notify` token its call carried),
 * and the caller prints one line per wait on stderr, e.g.
 *
 * ```text
 * waiting: browser (session:s1) is exclusive and held by run r-1 (pid 42) since 2026-…Z; waiting up to 30000 ms (leaseTimeout)
 * ```
 *
 * Issue 8, "Exclusive means one caller, and a run is one caller". The wire
 * shapes are declared here, where both the daemon and its callers read them.
 *
 * @module
 */

import { pause } from "../core/pause.ts";
import { requestDaemon } from "./daemon_request.ts";
import { McpxError } from "../core/errors.ts";

/** Who holds an instance: a script run (for its whole run) or a single call's lease. */
export interface Holder {
  /** The script run holding it (`MCPX_RUN`); absent for a call outside a run. */
  run?: string;
  /** The holder's `mcpx` process (for a run, the `mcpx run` process). */
  pid?: number;
  /** Since when it holds the instance, epoch ms. */
  since: number;
}

/** One caller waiting for an instance others hold, as `waits` reports it. */
export interface LeaseWait {
  /** Unique within the daemon, increasing. */
  id: number;
  /** What the waiter polls `waits` with: the token its call carried, else its run id. */
  token?: string;
  /** The waiting caller's run, when a script run waits. */
  run?: string;
  /** The waiting caller's `mcpx` process. */
  pid?: number;
  namespace: string;
  server: string;
  /** The scope key the caller needs an instance for. */
  key: string;
  /**
   * The server's `scope` (config/types.ts `Scope`: `global`, `session`, `cwd`, …),
   * which says what would give two callers different instances.
   */
  scope?: string;
  /** When the wait began, epoch ms. */
  since: number;
  /** The longest it waits, in ms. */
  limitMs: number;
  /** What set `limitMs`: `leaseTimeout` (a pool key) or the caller's own limit (`--timeout`). */
  setting: string;
  /** Who holds what it waits for: the instance for its key, or every instance of a full pool. */
  holders: Holder[];
  /** Set when the pool is at `max` and no instance could be stopped to make room. */
  full?: { max: number };
}

/**
 * One phrase naming a holder, e.g. `run r-1 (pid 42) since 2026-01-01T10:00:00.000Z`
 * or `a call (pid 42) since …`.
 */
export function describeHolder(holder: Holder): string {
  const who = holder.run ? `run ${holder.run}` : "a call";
  const pid = holder.pid ? ` (pid ${holder.pid})` : "";
  return `${who}${pid} since ${new Date(holder.since).toISOString()}`;
}

/** The line a waiting caller prints on stderr (see the module example). */
export function waitNotice(wait: Omit<LeaseWait, "id">): string {
  const holders = wait.holders.map(describeHolder).join(", ");
  const what = wait.full
    ? `${
      wait.full.max === 1
        ? `the one instance of ${wait.namespace} is`
        : `all ${wait.full.max} instances of ${wait.namespace} are`
    } in use${holders ? ` (by ${holders})` : ""}`
    : `${wait.namespace} (${wait.key}) is exclusive and ${
      holders ? `held by ${holders}` : "being started for another caller"
    }`;
  return `waiting: ${what}; waiting up to ${wait.limitMs} ms (${wait.setting})`;
}

/**
 * Prints a line for each lease wait the daemon reports under `token`, until
 * `signal` aborts. Never throws: a daemon not answering yet (the call being
 * watched is starting it) is asked again after 250 ms; a daemon without the
 * operation, or of another version, ends the watch quietly.
 *
 * @param socket The daemon's socket.
 * @param token The caller's run id, or the `notify` token its call carries.
 * @param print Called with each notice (no trailing newline).
 */
export async function watchLeaseWaits(
  socket: string,
  token: string,
  print: (line: string) => void,
  options: { signal: AbortSignal; version: string; token?: string },
): Promise<void> {
  const { signal } = options;
  let after = 0;
  while (!signal.aborted) {
    let waits: LeaseWait[];
    try {
      ({ waits } = await requestDaemon<{ waits: LeaseWait[] }>(
        socket,
        "waits",
        { token, after, holdMs: 20_000 },
        { signal, version: options.version, token: options.token },
      ));
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof McpxError && error.code !== "daemon-unavailable") return;
      await pause(250, signal);
      continue;
    }
    for (const wait of waits) {
      if (wait.id <= after) continue;
      after = wait.id;
      if (!signal.aborted) print(waitNotice(wait));
    }
    // Nothing before the hold ran out (or a stopping daemon answering at once): ask again
    // shortly, not in a tight loop.
    if (waits.length === 0) await pause(250, signal);
  }
}
