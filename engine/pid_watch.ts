/**
 * The periodic check behind `pid`-scoped instances (spec 000, "Sharing and
 * scope": a `pid`-scoped instance stops as soon as that pid exits): scheduled
 * exactly while some live instance is keyed by a pid.
 *
 * @module
 */

/** How often the pids of `pid`-keyed instances are checked, in ms. */
export const PID_CHECK_MS = 1_000;

/** Runs a check every {@linkcode PID_CHECK_MS} while it is needed. */
export class PidWatch {
  #check: () => Promise<unknown>;
  #needed: () => boolean;
  #timer?: ReturnType<typeof setTimeout>;

  /**
   * @param check The check (a pool's `stopOrphans`); its failure ends nothing.
   * @param needed Whether some live instance is keyed by a pid now.
   */
  constructor(check: () => Promise<unknown>, needed: () => boolean) {
    this.#check = check;
    this.#needed = needed;
  }

  /**
   * Call whenever the instances change: schedules the next check when one is
   * needed and none is pending, cancels it when none is needed. The timer
   * never keeps a process (the daemon, a test) running.
   */
  update(): void {
    if (!this.#needed()) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(async () => {
        try {
          await this.#check();
        } finally {
          this.#timer = undefined;
          this.update();
        }
      }, PID_CHECK_MS);
      Deno.unrefTimer(this.#timer);
    }
  }
}
