/**
 * Console lines batched into durable records (issue 24, "Script console
 * capture"; decision 0063). A record per line cost about 250 bytes of fields
 * (time, id, span, the template repeating the line, the run's ids) for a
 * line of ten: 200,000 `console.log` lines (2.3 MB) were 49.8 MB of log. A
 * batch is one record for consecutive lines of one level: its message is the
 * lines joined by `\n` (exactly what the console printed, as one record's
 * message was), its template the constant {@link CONSOLE_TEMPLATE}, `lines`
 * says how many. Written when a line of another level or kind arrives, when
 * it holds {@link BATCH_MAX_BYTES}, {@link BATCH_MAX_MS} after its first
 * line, and when the run ends.
 *
 * What is batched: a line the client's console capture wrote (event
 * `console` on the client's stderr, client/console_capture.ts) whose
 * attributes are only `fileOnly` and `args` (`args`, the values the text was
 * formatted from, are left out: the text is the record). Any other record (a
 * console line with a call site under `logging.source` or a stack trace, the
 * script's own `log()`) stays a record of its own, event `log` as before,
 * after the batch before it.
 *
 * @module
 */

import type { LogRecord } from "../logs/record.ts";

/** The template of every batch: records differing only in their lines share it. */
export const CONSOLE_TEMPLATE = "console output";
/** The event of a batch. */
export const CONSOLE_EVENT = "console";
/** A batch is written once its lines hold this many UTF-16 code units. */
export const BATCH_MAX_BYTES = 65_536;
/** A batch is written at most this long after its first line, in ms. */
export const BATCH_MAX_MS = 1000;

const BATCHABLE_ATTRS: ReadonlySet<string> = new Set(["fileOnly", "args"]);

interface Batch {
  first: LogRecord;
  fileOnly: boolean;
  lines: string[];
  size: number;
}

/** Collects console lines and hands on one record per batch. */
export class ConsoleBatch {
  #write: (record: LogRecord) => void;
  #batch?: Batch;
  #timer?: ReturnType<typeof setTimeout>;

  /** @param write Receives each finished record (a batch, or one that was not batched), in order. */
  constructor(write: (record: LogRecord) => void) {
    this.#write = write;
  }

  /**
   * Takes one record of the script's: batches it when it is a plain console
   * line, else writes the batch before it and then it.
   *
   * @param fromConsole True when the console capture wrote it.
   */
  add(record: LogRecord, fromConsole: boolean): void {
    if (!fromConsole || !batchable(record)) {
      this.flush();
      this.#write(record);
      return;
    }
    const fileOnly = record.attrs.fileOnly === true;
    const batch = this.#batch;
    if (batch && (batch.first.level !== record.level || batch.fileOnly !== fileOnly)) this.flush();
    if (!this.#batch) {
      this.#batch = { first: record, fileOnly, lines: [], size: 0 };
      this.#timer = setTimeout(() => this.flush(), BATCH_MAX_MS);
      Deno.unrefTimer(this.#timer);
    }
    this.#batch!.lines.push(record.msg);
    this.#batch!.size += record.msg.length + 1;
    if (this.#batch!.size >= BATCH_MAX_BYTES) this.flush();
  }

  /** Writes the batch being collected, if any. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#batch;
    this.#batch = undefined;
    if (!batch) return;
    const { first } = batch;
    this.#write({
      time: first.time,
      level: first.level,
      event: CONSOLE_EVENT,
      msg: batch.lines.join("\n"),
      template: CONSOLE_TEMPLATE,
      id: first.id,
      span: first.span,
      attrs: { lines: batch.lines.length, ...(batch.fileOnly ? { fileOnly: true } : {}) },
    });
  }
}

function batchable(record: LogRecord): boolean {
  for (const key of Object.keys(record.attrs)) if (!BATCHABLE_ATTRS.has(key)) return false;
  return true;
}
