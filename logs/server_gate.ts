/**
 * The bound on what one server can make mcpx record (decision 0063): at most
 * `rate` records in each one-second window and none larger than `maxBytes`.
 * A record over either is dropped and counted; once a window in which some
 * were dropped has ended, one summary says how many (per server, at most one
 * a window), so a flood costs a line a second instead of the disk.
 *
 * Windows are fixed (`floor(now / windowMs)`), per server name: every
 * instance of one server shares its allowance, so starting more instances
 * does not multiply it.
 *
 * @module
 */

/** What was dropped of one server's records in one window. */
export interface DroppedWindow {
  server: string;
  /** Records dropped because the window already held `rate`. */
  overRate: number;
  /** Records dropped because they were larger than `maxBytes`. */
  overSize: number;
  /** ISO time the window started. */
  since: string;
  /** The window's length, in ms. */
  windowMs: number;
  /** The limits in force. */
  rate: number;
  maxBytes: number;
}

/** The limits of a {@link ServerGate}. */
export interface ServerGateLimits {
  /** Records per window per server (setting `logging.serverRate`). */
  rate: number;
  /** Bytes per record (setting `logging.serverRecordBytes`). */
  maxBytes: number;
}

/** Options of a {@link ServerGate}. */
export interface ServerGateOptions extends ServerGateLimits {
  /** Receives the summary of a window in which records were dropped. Must not throw. */
  summary: (dropped: DroppedWindow) => void;
  /** The window, in ms (default 1000). */
  windowMs?: number;
  /** The clock, epoch ms (tests). */
  now?: () => number;
  /**
   * Schedules the summary of a window nothing else arrives after (default: an
   * unreferenced `setTimeout`, so it never keeps a process alive).
   */
  later?: (fn: () => void, ms: number) => void;
}

interface Window {
  index: number;
  admitted: number;
  overRate: number;
  overSize: number;
  scheduled: boolean;
}

/** Admits or drops the records each server causes. */
export class ServerGate {
  #o: Required<ServerGateOptions>;
  #windows = new Map<string, Window>();

  constructor(options: ServerGateOptions) {
    this.#o = {
      windowMs: 1000,
      now: Date.now,
      later: (fn, ms) => {
        const timer = setTimeout(fn, ms);
        (globalThis as { Deno?: typeof Deno }).Deno?.unrefTimer(timer);
      },
      ...options,
    };
  }

  /** Changes the limits from now on. */
  set limits(limits: ServerGateLimits) {
    this.#o.rate = limits.rate;
    this.#o.maxBytes = limits.maxBytes;
  }

  /**
   * Whether a record `server` caused may be written.
   *
   * @param server The server's name.
   * @param size The record's size in bytes, or a function computing it (called
   *   only when the rate allows the record, so a dropped one costs no encoding).
   * @returns True to write it; false when it was dropped (and counted).
   */
  admit(server: string, size: number | (() => number)): boolean {
    const index = Math.floor(this.#o.now() / this.#o.windowMs);
    let window = this.#windows.get(server);
    if (window && window.index !== index) {
      this.#flush(server, window);
      window = undefined;
    }
    if (!window) {
      window = { index, admitted: 0, overRate: 0, overSize: 0, scheduled: false };
      this.#windows.set(server, window);
    }
    if (window.admitted >= this.#o.rate) {
      window.overRate++;
    } else if ((typeof size === "number" ? size : size()) > this.#o.maxBytes) {
      window.overSize++;
    } else {
      window.admitted++;
      return true;
    }
    if (!window.scheduled) {
      window.scheduled = true;
      const end = (window.index + 1) * this.#o.windowMs;
      const w = window;
      this.#o.later(() => {
        if (this.#windows.get(server) === w) {
          this.#windows.delete(server);
          this.#flush(server, w);
        }
      }, Math.max(0, end - this.#o.now()));
    }
    return false;
  }

  /** Hands on the summary of every window that dropped records (a daemon stopping). */
  flushAll(): void {
    for (const [server, window] of this.#windows) this.#flush(server, window);
    this.#windows.clear();
  }

  #flush(server: string, window: Window): void {
    if (window.overRate + window.overSize === 0) return;
    const { windowMs, rate, maxBytes } = this.#o;
    const dropped = { overRate: window.overRate, overSize: window.overSize };
    window.overRate = window.overSize = 0;
    try {
      this.#o.summary({
        server,
        ...dropped,
        since: new Date(window.index * windowMs).toISOString(),
        windowMs,
        rate,
        maxBytes,
      });
    } catch { /* a summary must never take the caller down */ }
  }
}
