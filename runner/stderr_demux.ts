/**
 * Splits a script's stderr into records and everything else. A line that
 * starts with U+001E is one JSON record (the client's `log`, captured
 * `console`, `emit`/the result under `--json`); every other byte is the
 * script's own and is passed on as it arrives, even without a newline
 * (decision 0004).
 *
 * @module
 */

/** The byte that starts a record line. */
export const RECORD_MARK = 0x1e;

/** What the demultiplexer hands on. */
export interface DemuxHandlers {
  /** A parsed record (a JSON object). */
  record(record: Record<string, unknown>): void;
  /** Bytes of the script's own stderr, in order. */
  text(bytes: Uint8Array): void;
}

/**
 * Incremental splitter: feed it chunks in order, then `end()`.
 *
 * A record line that does not parse as a JSON object is passed on as text
 * (without its marker), so nothing the script wrote is lost.
 */
export class StderrDemux {
  #handlers: DemuxHandlers;
  #record: Uint8Array[] = [];
  #inRecord = false;
  #atLineStart = true;
  #decoder = new TextDecoder();

  constructor(handlers: DemuxHandlers) {
    this.#handlers = handlers;
  }

  /** Consumes one chunk. */
  push(chunk: Uint8Array): void {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (this.#atLineStart && byte === RECORD_MARK && !this.#inRecord) {
        if (i > start) this.#handlers.text(chunk.subarray(start, i));
        this.#inRecord = true;
        start = i + 1;
      }
      this.#atLineStart = false;
      if (byte === 0x0a) {
        if (this.#inRecord) {
          this.#record.push(chunk.subarray(start, i));
          this.#finishRecord();
          start = i + 1;
        }
        this.#atLineStart = true;
      }
    }
    if (start < chunk.length) {
      if (this.#inRecord) this.#record.push(chunk.slice(start));
      else this.#handlers.text(chunk.subarray(start));
    }
  }

  /** Flushes a record left without its newline (the script died mid-write). */
  end(): void {
    if (this.#inRecord) this.#finishRecord();
  }

  #finishRecord(): void {
    const parts = this.#record;
    this.#record = [];
    this.#inRecord = false;
    const total = parts.reduce((n, p) => n + p.length, 0);
    const bytes = new Uint8Array(total);
    let offset = 0;
    for (const p of parts) {
      bytes.set(p, offset);
      offset += p.length;
    }
    const text = this.#decoder.decode(bytes);
    try {
      const value = JSON.parse(text);
      if (value && typeof value === "object" && !Array.isArray(value)) {
        this.#handlers.record(value);
        return;
      }
    } catch { /* not a record after all */ }
    this.#handlers.text(new TextEncoder().encode(text + "\n"));
  }
}
