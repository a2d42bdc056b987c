/**
 * How a call's progress notifications (MCP `notifications/progress`) become
 * log records without flooding the log when a server sends thousands: the
 * first is written at once; later ones at most one per
 * {@link PROGRESS_RECORD_INTERVAL_MS}, each saying how many were passed over
 * since the record before it; and when the call ends, the latest one if it
 * was passed over, so the log always holds the first and the last progress
 * a call reported. No timer: a held notification waits for the next one or
 * the call's end. Decision 0034.
 *
 * @module
 */

/** The least time between two progress records of one call, in ms. */
export const PROGRESS_RECORD_INTERVAL_MS = 1000;

/** The longest progress `message` kept in a record, in characters. */
export const PROGRESS_MESSAGE_MAX = 300;

/** One progress notification's params (MCP 2025-11-25, "Progress"), without its token. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** What a progress record holds: the notification, its ordinal, and what was passed over. */
export interface ProgressNote extends Progress {
  /** 1 for the call's first progress notification, counting every one received. */
  count: number;
  /** Notifications received since the previous record and not written. */
  skipped: number;
}

/** Rate-limits one call's progress records (see the module text). */
export class ProgressLog {
  #write: (note: ProgressNote) => void;
  #intervalMs: number;
  #now: () => number;
  #count = 0;
  #skipped = 0;
  #lastWritten = -Infinity;
  #held?: ProgressNote;

  /**
   * @param write Writes one record; must not throw.
   * @param options.intervalMs Default {@link PROGRESS_RECORD_INTERVAL_MS}.
   * @param options.now The clock, in ms (a test seam); default `performance.now`.
   */
  constructor(
    write: (note: ProgressNote) => void,
    options: { intervalMs?: number; now?: () => number } = {},
  ) {
    this.#write = write;
    this.#intervalMs = options.intervalMs ?? PROGRESS_RECORD_INTERVAL_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  /** How many notifications the call has received. */
  get count(): number {
    return this.#count;
  }

  /** One notification arrived: written now, or held until the next one or {@link finish}. */
  note(progress: Progress): void {
    this.#count++;
    const note: ProgressNote = {
      progress: progress.progress,
      ...(progress.total !== undefined ? { total: progress.total } : {}),
      ...(typeof progress.message === "string"
        ? { message: progress.message.slice(0, PROGRESS_MESSAGE_MAX) }
        : {}),
      count: this.#count,
      skipped: this.#skipped,
    };
    const now = this.#now();
    if (now - this.#lastWritten >= this.#intervalMs) {
      this.#lastWritten = now;
      this.#skipped = 0;
      this.#held = undefined;
      this.#write(note);
    } else {
      this.#skipped++;
      this.#held = note;
    }
  }

  /** The call ended: writes the latest notification when it was held back. */
  finish(): void {
    const held = this.#held;
    if (!held) return;
    this.#held = undefined;
    this.#skipped = 0;
    this.#write(held); // its `skipped`: those passed over before it
  }
}
