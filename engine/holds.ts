/**
 * Who holds which instance of a pool: the leases in use (one per call in
 * flight), and the exclusive instances script runs keep between their calls.
 *
 * Issue 8, "Exclusive means one caller, and a run is one caller": an
 * exclusive instance serves one lease at a time, and a run that leased one
 * keeps it from its first call until it ends ({@linkcode Holds.releaseRun}),
 * or until its `mcpx run` process is gone ({@linkcode Holds.dropDeadRuns}),
 * so a second run of the session cannot slip its calls in between.
 *
 * @module
 */

import type { Holder } from "./lease_board.ts";
import type { CallerContext } from "./scope_key.ts";
import { pidAlive } from "../core/pid_alive.ts";

/** A run's hold on an exclusive instance. */
export type RunHold = Holder & { run: string };

/** The holds on the instances of one pool, keyed by instance. */
export class Holds<I extends object> {
  /** The leases held on each instance now (one Holder per lease). */
  #leases = new Map<I, Set<Holder>>();
  /** Exclusive instances a run holds between its calls. */
  #runs = new Map<I, RunHold>();

  /** How many leases are held on `instance`. */
  leases(instance: I): number {
    return this.#leases.get(instance)?.size ?? 0;
  }

  /** The run holding `instance` between its calls, if any. */
  run(instance: I): RunHold | undefined {
    return this.#runs.get(instance);
  }

  /** Whether `instance` has a lease or a run's hold: not idle, not to be stopped to make room. */
  held(instance: I): boolean {
    return this.leases(instance) > 0 || this.#runs.has(instance);
  }

  /**
   * Whether an exclusive `instance` may be leased by `ctx` now: no lease on
   * it, and no hold of a run other than the caller's (unless `ignoreRuns`).
   */
  available(instance: I, ctx: CallerContext, ignoreRuns = false): boolean {
    if (this.leases(instance)) return false;
    const run = this.#runs.get(instance)?.run;
    return run === undefined || run === ctx.run || ignoreRuns;
  }

  /**
   * Records a lease of `instance` by `ctx`; on an exclusive instance a run's
   * first lease also starts its hold.
   *
   * @returns A function that ends the lease (once) and returns how many
   *   leases remain on the instance.
   */
  add(instance: I, ctx: CallerContext, exclusive: boolean): () => number {
    const holder: Holder = {
      ...(ctx.run ? { run: ctx.run } : {}),
      ...(ctx.pid ? { pid: ctx.pid } : {}),
      since: Date.now(),
    };
    const leases = this.#leases.get(instance) ?? new Set();
    leases.add(holder);
    this.#leases.set(instance, leases);
    if (ctx.run && exclusive && !this.#runs.has(instance)) {
      this.#runs.set(instance, { ...holder, run: ctx.run });
    }
    return () => {
      leases.delete(holder);
      if (leases.size === 0 && this.#leases.get(instance) === leases) {
        this.#leases.delete(instance);
      }
      return leases.size;
    };
  }

  /** Who holds `instance`: its run's hold first, then every lease outside that run (copies). */
  holdersOf(instance: I): Holder[] {
    const run = this.#runs.get(instance);
    const leases = [...this.#leases.get(instance) ?? []].filter((h) => !run || h.run !== run.run);
    return [...(run ? [run] : []), ...leases].map((h) => ({ ...h }));
  }

  /** Ends run `run`'s holds. @returns The instances it held. */
  releaseRun(run: string): I[] {
    const freed: I[] = [];
    for (const [instance, hold] of this.#runs) {
      if (hold.run !== run) continue;
      this.#runs.delete(instance);
      freed.push(instance);
    }
    return freed;
  }

  /**
   * Ends the holds of runs whose `mcpx run` process is gone (killed, so it
   * never said it ended).
   * @returns The holds dropped, with their instances.
   */
  dropDeadRuns(): { instance: I; hold: RunHold }[] {
    const dropped: { instance: I; hold: RunHold }[] = [];
    for (const [instance, hold] of this.#runs) {
      if (hold.pid === undefined || pidAlive(hold.pid)) continue;
      this.#runs.delete(instance);
      dropped.push({ instance, hold });
    }
    return dropped;
  }

  /** Whether any run holds an instance (the pool then checks their pids while waiting). */
  get anyRun(): boolean {
    return this.#runs.size > 0;
  }

  /** Forgets everything about `instance` (it is gone). */
  forget(instance: I): void {
    this.#leases.delete(instance);
    this.#runs.delete(instance);
  }
}
