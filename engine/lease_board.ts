/**
 * The daemon-wide board of callers waiting for an instance others hold: who
 * waits, for which instance, held by whom. Pools post their waits here; it
 * tells a waiting caller what it waits for (the `waits` operation, which a
 * caller long-polls with its run id or the token its call carried; the wire
 * shapes are in wire/lease_waits.ts), and it
 * refuses a wait that would close a cycle of script runs each holding what
 * another waits for (issue 8, "Exclusive means one caller, and a run is one
 * caller").
 *
 * @module
 */

import { McpxError } from "../core/errors.ts";
import { describeHolder, type Holder, type LeaseWait } from "../wire/lease_waits.ts";

export { describeHolder, type Holder, type LeaseWait } from "../wire/lease_waits.ts";

/**
 * A wait that would never end: script runs that each hold an exclusive
 * instance another of them waits for. Code `lease-deadlock`; `holders` names
 * every run in the cycle, the refused caller's first.
 */
export class LeaseDeadlockError extends McpxError {
  readonly holders: Holder[];
  constructor(message: string, holders: Holder[]) {
    super("lease-deadlock", message);
    this.name = "LeaseDeadlockError";
    this.holders = holders;
  }
}

interface Poll {
  token: string;
  after: number;
  resolve(waits: LeaseWait[]): void;
}

/** Every lease wait of one daemon. */
export class LeaseBoard {
  #waits = new Map<number, LeaseWait>();
  #polls = new Set<Poll>();
  #nextId = 1;
  #closed = false;

  /** The waits in progress, oldest first. */
  get waits(): LeaseWait[] {
    return [...this.#waits.values()];
  }

  /**
   * Posts a wait, or updates the holders of one already posted, and answers
   * the callers polling for its token.
   *
   * @throws {LeaseDeadlockError} when the waiter is a run and a holder it
   *   waits for is (through any chain of runs) waiting for what it holds;
   *   the wait is then not posted.
   */
  post(wait: Omit<LeaseWait, "id">, existing?: LeaseWait): LeaseWait {
    this.#refuseCycle(wait);
    if (existing && this.#waits.has(existing.id)) {
      existing.holders = wait.holders;
      existing.full = wait.full;
      return existing;
    }
    const posted: LeaseWait = { ...wait, id: this.#nextId++ };
    this.#waits.set(posted.id, posted);
    for (const poll of this.#polls) {
      if (poll.token === posted.token) poll.resolve([posted]);
    }
    return posted;
  }

  /** Removes a wait (it ended: got its instance, timed out, or failed). */
  remove(wait: LeaseWait | undefined): void {
    if (wait) this.#waits.delete(wait.id);
  }

  /**
   * The waits posted for `token` with an id above `after`: at once when there
   * are some, else as soon as one is posted, or `[]` after `holdMs`, when
   * `signal` aborts, or when the board closes.
   *
   * @param holdMs How long to hold the request open, in ms.
   */
  poll(token: string, after: number, holdMs: number, signal?: AbortSignal): Promise<LeaseWait[]> {
    const now = this.waits.filter((w) => w.token === token && w.id > after);
    if (now.length || this.#closed || signal?.aborted) return Promise.resolve(now);
    return new Promise((resolve) => {
      const onAbort = () => poll.resolve([]);
      const timer = setTimeout(onAbort, holdMs);
      const poll: Poll = {
        token,
        after,
        resolve: (waits) => {
          this.#polls.delete(poll);
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(waits);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#polls.add(poll);
    });
  }

  /** Answers every poll with `[]` and holds no more (the daemon is stopping). */
  close(): void {
    this.#closed = true;
    for (const poll of [...this.#polls]) poll.resolve([]);
  }

  /**
   * Throws when `wait`'s run would wait, through other runs' waits, for
   * itself. A wait for one key's instance depends on every holder (the
   * instance frees when all let go); a wait for any slot of a full pool
   * (`full`) may be met by any holder, so it counts only when one run holds
   * every slot, and is otherwise left to its bound.
   */
  #refuseCycle(wait: Omit<LeaseWait, "id">): void {
    const self = wait.run;
    if (!self || !definite(wait)) return;
    // Breadth-first over runs: which run holds what, and what that run waits for.
    const via = new Map<string, { wait: Omit<LeaseWait, "id">; holder: Holder }>();
    const queue: Omit<LeaseWait, "id">[] = [wait];
    while (queue.length) {
      const current = queue.shift()!;
      for (const holder of current.holders) {
        const run = holder.run;
        if (!run || run === current.run) continue;
        if (run === self) throw this.#deadlock(wait, current, holder, via);
        if (via.has(run)) continue;
        via.set(run, { wait: current, holder });
        for (const next of this.#waits.values()) {
          if (next.run === run && definite(next)) queue.push(next);
        }
      }
    }
  }

  #deadlock(
    wait: Omit<LeaseWait, "id">,
    last: Omit<LeaseWait, "id">,
    holder: Holder,
    via: Map<string, { wait: Omit<LeaseWait, "id">; holder: Holder }>,
  ): LeaseDeadlockError {
    // Walk back from the wait that closed the cycle to the refused one.
    const steps: { wait: Omit<LeaseWait, "id">; holder: Holder }[] = [{ wait: last, holder }];
    let current = last;
    while (current !== wait && current.run && via.has(current.run)) {
      const step = via.get(current.run)!;
      steps.unshift(step);
      current = step.wait;
    }
    const lines = steps.map(({ wait: w, holder: h }) =>
      `run ${w.run} waits for ${w.namespace} (${w.key}), held by ${describeHolder(h)}`
    );
    return new LeaseDeadlockError(
      `run ${wait.run} would wait forever: ${lines.join("; ")}. Each run keeps an exclusive ` +
        `instance until it ends, so none of them could go on; this call fails instead of ` +
        `waiting, so run ${wait.run} can end and release what it holds. ${
          separateRuns(steps.map((s) => s.wait))
        }`,
      steps.map((s) => s.holder),
    );
  }
}

/** What gives runs separate instances, per scope (`session` and `parent-session` alike). */
const SEPARATED_BY = new Map([
  ["session", "their own sessions (--session <key> or MCPX_SESSION_ID)"],
  ["parent-session", "their own sessions (--session <key> or MCPX_SESSION_ID)"],
  ["cwd", "different working directories"],
  ["repo", "different git repositories"],
  ["worktree", "different git worktrees"],
]);

/**
 * The last sentence of a deadlock error: what would keep such runs apart,
 * judged by the scope of each instance in the cycle. A session does nothing
 * for a `global` server (one process for every caller), so that says to run
 * them one after the other or to give the server a narrower scope.
 */
function separateRuns(waits: Omit<LeaseWait, "id">[]): string {
  const globals = [...new Set(waits.filter((w) => w.scope === "global").map((w) => w.server))];
  const ways = [...new Set(waits.map((w) => SEPARATED_BY.get(w.scope ?? "")))]
    .filter((way) => way !== undefined);
  if (globals.length === 0) {
    return ways.length === 1
      ? `Give concurrent runs ${ways[0]}, or run them one after the other.`
      : "Run them one after the other.";
  }
  const servers = globals.map((s) => `mcpServers.${s}.mcpx`).join(" and ");
  return `${globals.map((s) => `"${s}"`).join(" and ")} ${
    globals.length === 1 ? "has" : "have"
  } scope global (one process for every caller), so another session would not keep these runs ` +
    `apart: run them one after the other, or set "scope": "session" in ${servers} so each ` +
    `session gets its own process, then give the runs their own sessions (--session <key>).`;
}

/** Whether a wait can only end when each of its holders lets go (see `#refuseCycle`). */
function definite(wait: Omit<LeaseWait, "id">): boolean {
  if (!wait.full) return true;
  const runs = new Set(wait.holders.map((h) => h.run));
  return runs.size === 1 && !runs.has(undefined);
}
