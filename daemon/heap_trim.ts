/**
 * Gives the C heap's free pages back to the system once the daemon is quiet
 * (issue 11's daemon-memory row; decision 0057).
 *
 * Deno's Rust side allocates through glibc's malloc: module loading, the
 * packages' start-up, each server's spawn and pipes. What it frees stays
 * mapped, scattered among live blocks and spread over per-thread arenas, which
 * glibc only returns from the top of a heap. An idle daemon with 3 servers held
 * 37–68 MiB of anonymous memory of which its V8 heap was 18 MiB; one
 * `malloc_trim(0)` brought it to 30 MiB (measured in decision 0057). The call
 * walks the arenas and releases (MADV_DONTNEED) every free page; it costs well
 * under a millisecond and changes no live allocation.
 *
 * Only on Linux with glibc: elsewhere (macOS, musl) there is no such call, and
 * {@link glibcTrim} answers undefined.
 *
 * @module
 */

/** Returns free heap pages to the system; true when any were released. */
export type Trim = () => boolean;

/**
 * glibc's `malloc_trim(0)` through Deno's FFI (the daemon runs with `-A`), or
 * undefined where it cannot be loaded: not Linux, no `libc.so.6` (musl), or
 * FFI not allowed.
 */
export function glibcTrim(): Trim | undefined {
  if (Deno.build.os !== "linux") return undefined;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
    });
    return () => libc.symbols.malloc_trim(0n) === 1;
  } catch {
    return undefined;
  }
}

/**
 * How long after the last request the trims run, ms: once the request's garbage
 * is freed; again after V8's memory reducer, whose collections come some 8 s and
 * 16 s after a process's work stops (and frees what they release through the C
 * heap too: buffers, handles); and once more for a long quiet.
 */
export const TRIM_AFTER_QUIET_MS: readonly number[] = [5_000, 20_000, 60_000];

/**
 * Decides when to trim: each of {@link TRIM_AFTER_QUIET_MS} once per quiet
 * spell, a spell being the time since the last request while none is in flight.
 * Driven by the daemon's periodic check, so it adds no timer of its own.
 */
export class HeapTrimmer {
  #trim: Trim;
  #stages: readonly number[];
  #spell = -1;
  #done = 0;

  /**
   * @param trim What releases the pages ({@link glibcTrim}).
   * @param stages Quiet times at which to trim, ms, ascending.
   */
  constructor(trim: Trim, stages: readonly number[] = TRIM_AFTER_QUIET_MS) {
    this.#trim = trim;
    this.#stages = stages;
  }

  /**
   * Trims when the quiet spell that began at `lastActivityAt` has reached its
   * next stage.
   *
   * @param lastActivityAt When the last request arrived or ended, ms since the epoch.
   * @param inFlight Requests being answered: no trim while any is.
   * @param now The time, ms since the epoch.
   * @returns Whether it trimmed.
   */
  tick(lastActivityAt: number, inFlight: number, now: number = Date.now()): boolean {
    if (lastActivityAt !== this.#spell) {
      this.#spell = lastActivityAt;
      this.#done = 0;
    }
    if (inFlight > 0) return false;
    // Every stage the spell has reached; past several at once (a slow tick), one trim covers them.
    let reached = this.#done;
    while (reached < this.#stages.length && now - lastActivityAt >= this.#stages[reached]) {
      reached++;
    }
    if (reached === this.#done) return false;
    this.#done = reached;
    this.#trim();
    return true;
  }
}
