/**
 * Deno's own report of a top-level await that never settled, said in mcpx's
 * words instead (client/unsettled_await.ts; decision 0024). Deno has no hook
 * a script could use at that moment: it prints, coloured whatever stderr is
 * and with the launcher's frame,
 *
 * ```
 * error: Top-level await promise never resolved
 *   { result.value = await __mcpx.launcher.awaiting(…); }
 *   ^
 *     at <anonymous> (file:///…/launchers/….ts:14:3)
 * ```
 *
 * and exits 1. So the script's stderr text passes through a
 * {@link RuntimeReportHold}: a line that begins with that report's first line
 * (colours aside) and everything after it is held back; when the run ends the
 * runner decides, from the exit status, whether it was the report (then the
 * error replaces it) or the script's own text (then it is written as it came).
 * A line that cannot be the report passes on at once, as before.
 *
 * @module
 */

/** The report's first line, colours stripped (Deno 1.x through 2.9). */
export const DENO_UNSETTLED_REPORT = "error: Top-level await promise never resolved";

const ESC = 0x1b;
const NEWLINE = 0x0a;
const HEADER = new TextEncoder().encode(DENO_UNSETTLED_REPORT);

/**
 * Passes text bytes on, holding back a trailing report (see the module).
 * Feed it the script's stderr text in order (records already taken out:
 * they start at a line start, so lines stay whole).
 */
export class RuntimeReportHold {
  #pass: (bytes: Uint8Array) => void;
  #atLineStart = true;
  /** Bytes of the current line while it may still be the report. */
  #candidate: Uint8Array[] = [];
  /** How much of the report's first line the candidate matched; -1 when none is pending. */
  #matched = -1;
  #inSgr = false;
  #held: Uint8Array[] | null = null;

  /** @param pass Where text goes on (the run's stderr). */
  constructor(pass: (bytes: Uint8Array) => void) {
    this.#pass = pass;
  }

  /** One chunk of text. */
  text(bytes: Uint8Array): void {
    if (this.#held) {
      this.#held.push(bytes.slice());
      return;
    }
    let start = 0; // first byte not yet passed on or taken as candidate
    let i = 0;
    while (i < bytes.length) {
      if (this.#matched >= 0 || this.#atLineStart) {
        if (this.#matched < 0) this.#matched = 0;
        this.#atLineStart = false;
        const verdict = this.#step(bytes[i]);
        if (verdict === "more") {
          i++;
          continue;
        }
        const candidate = bytes.subarray(start, i + 1);
        if (verdict === "report") {
          this.#held = [...this.#candidate, candidate.slice(), bytes.slice(i + 1)];
          this.#candidate = [];
          return;
        }
        // Not the report: what was kept back goes on, and the rest of the line with it.
        for (const part of this.#candidate) this.#pass(part);
        this.#candidate = [];
        this.#matched = -1;
        this.#inSgr = false;
        i++;
        if (bytes[i - 1] === NEWLINE) {
          this.#atLineStart = true;
          this.#pass(bytes.subarray(start, i));
          start = i;
        }
        continue;
      }
      const newline = bytes.indexOf(NEWLINE, i);
      if (newline < 0) {
        i = bytes.length;
        break;
      }
      i = newline + 1;
      this.#atLineStart = true;
      // Everything up to here is plain text.
      this.#pass(bytes.subarray(start, i));
      start = i;
    }
    if (this.#matched >= 0) {
      // A line that may still be the report: keep it back until it can be told.
      if (start < bytes.length) this.#candidate.push(bytes.slice(start));
    } else if (start < bytes.length) this.#pass(bytes.subarray(start));
  }

  /** Matches one byte of a candidate line against the report's first line, colours skipped. */
  #step(byte: number): "more" | "report" | "other" {
    if (this.#inSgr) {
      if (byte === 0x6d) this.#inSgr = false; // `m` ends a colour
      else if (!(byte === 0x5b || byte === 0x3b || (byte >= 0x30 && byte <= 0x39))) return "other";
      return "more";
    }
    if (byte === ESC) {
      this.#inSgr = true;
      return "more";
    }
    if (byte !== HEADER[this.#matched]) return "other";
    this.#matched++;
    return this.#matched === HEADER.length ? "report" : "more";
  }

  /**
   * Ends the text: the held report (from its first line to the end), or null
   * when none was seen; a line still undecided is passed on.
   */
  end(): Uint8Array | null {
    for (const part of this.#candidate) this.#pass(part);
    this.#candidate = [];
    if (!this.#held) return null;
    const total = this.#held.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    let offset = 0;
    for (const part of this.#held) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
}

/**
 * Whether a run that held a report ended the way Deno ends after it: deno,
 * exit code 1, not by a signal.
 */
export function endedByUnsettledReport(
  runtime: string,
  status: { code: number; signal: Deno.Signal | null },
): boolean {
  return runtime === "deno" && status.code === 1 && status.signal === null;
}
