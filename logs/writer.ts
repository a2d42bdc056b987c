/**
 * Appends records to `<stateDir>/logs/`, one file per writer at a time,
 * rotated by size and by day (UTC), and removes files older than the
 * retention. These files are the record of truth (spec 000, "Reading the
 * log"); index.db is built from them and nothing else writes them.
 *
 * File names: `<YYYY-MM-DD>_<source>_<n>.jsonl`, e.g.
 * `2026-10-01_daemon-9f3c2a1b-4123_0.jsonl`: the UTC day of the first record,
 * who writes it (one writer process, so two processes never append to one
 * file), and a sequence number that grows when a file reaches the size limit.
 *
 * Writes are synchronous and whole lines: a record is on disk when `write`
 * returns, in the order written; a process killed mid-write leaves at most
 * one torn last line, which readers skip.
 *
 * A record that cannot be written (a full disk, a used-up quota, a folder
 * made read-only) is counted, never dropped without trace: {@link
 * LogWriter.append} returns false and {@link LogWriter.dropped} says how many,
 * since when and why, for `mcpx status` and the next command's warning
 * (issue 9). A write that failed half-way is cut back off the file, so the
 * next record starts on a line of its own.
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import { type StorageProblem, storageProblem } from "../core/errors.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../core/private_fs.ts";
import { existsSync } from "../core/exists.ts";
import { keepDirBudget } from "./dir_budget.ts";
import { byDayWriterSequence, LOG_FILE_SUFFIX } from "./_log_files.ts";

/** What the logs directory holds, in the words of a refusal (core/private_fs.ts). */
export const LOG_DIR_WHAT = "mcpx's log";

/** Records a {@link LogWriter} could not write, counted. */
export interface DroppedRecords {
  /** How many records were not written. */
  records: number;
  /** ISO time of the first record not written. */
  since: string;
  /** ISO time of the latest one. */
  last: string;
  /** Why the latest failed, when the file system said (no space, quota, read-only, permission). */
  problem?: StorageProblem;
  /** The file system's message for the latest failure. */
  error: string;
}

/**
 * The sentence about records lost: how many, since when, where and why.
 *
 * @example
 * ```ts
 * import { droppedSentence } from "./writer.ts";
 * const text = droppedSentence({
 *   records: 3, since: "2026-10-01T00:00:00.000Z", last: "2026-10-01T00:00:01.000Z",
 *   problem: "no-space", error: "No space left on device (os error 28)", dir: "/s/logs",
 * });
 * if (!text.includes("3 log records")) throw new Error();
 * ```
 */
export function droppedSentence(dropped: DroppedRecords & { dir: string }): string {
  const why = dropped.problem === "no-space" ? "no space left on device" : dropped.error;
  return `${dropped.records} log record${dropped.records === 1 ? "" : "s"} could not be written ` +
    `to ${dropped.dir} since ${dropped.since} (${why}); free space there`;
}

/** Options of a {@link LogWriter}. */
export interface LogWriterOptions {
  /**
   * The logs directory (created 0700; refused when another user owns it or
   * can write into it, core/private_fs.ts). Files are created 0600.
   */
  dir: string;
  /** Who writes: `[a-z0-9.-]+`, unique among live writers (e.g. `daemon-<fp8>-<pid>`). */
  source: string;
  /** A file is closed and the next one started before it would exceed this, in bytes. */
  maxFileSize: number;
  /** Files last written longer ago than this are removed, in ms; 0 keeps every file. */
  retentionMs: number;
  /**
   * The bytes the whole directory (log files, index.db, anything else in it)
   * may hold; the oldest log files are removed first to stay under it
   * ({@link LogWriter.keepBudget}; setting `logging.maxDirSize`, decision
   * 0063). 0 or absent: no bound.
   */
  maxDirSize?: number;
  /** The clock (tests). */
  now?: () => number;
  /**
   * A writer that lives for one short process (a script run): it neither lists
   * the folder to find its sequence number (it takes the first name it can
   * create exclusively) nor prunes (the daemons do). Listing a folder that
   * holds one file per run costs every run time that grows with the folder.
   */
  shortLived?: boolean;
}

export { LOG_FILE_SUFFIX };

const DAY_MS = 86_400_000;
/** A file is rotated at this fraction of `maxDirSize` when that is below `maxFileSize`. */
const FILE_SHARE = 0.1;
/** The smallest file rotation, in bytes (the setting `logging.maxFileSize`'s own minimum). */
const MIN_FILE_SIZE = 65_536;
/** After this long without writing, check that the current file still exists, in ms. */
const RECHECK_MS = 60_000;
const encoder = new TextEncoder();

/**
 * The logs directory: the setting `logging.dir` when it is set, else `logs`
 * in the state directory (spec 000, "Where a setting is read").
 *
 * @param stateDir e.g. `~/.local/state/mcpx`.
 * @param setting The resolved `logging.dir` (absolute, or empty for the default).
 * @returns e.g. `~/.local/state/mcpx/logs`.
 * @example
 * ```ts
 * import { logsDir } from "./writer.ts";
 * if (logsDir("/s") !== "/s/logs" || logsDir("/s", "/l") !== "/l") throw new Error();
 * ```
 */
export function logsDir(stateDir: string, setting = ""): string {
  return setting || join(stateDir, "logs");
}

/** Writes JSON lines with rotation and retention. Dispose it to close the file. */
export class LogWriter implements Disposable {
  readonly dir: string;
  readonly source: string;
  #options: LogWriterOptions;
  #now: () => number;
  #file?: Deno.FsFile;
  #path = "";
  #size = 0;
  #seq = 0;
  #day = "";
  #dayEnd = 0;
  #lastWrite = 0;
  #dropped?: DroppedRecords;

  /** @throws {TypeError} when `source` has characters other than `[a-z0-9.-]`. */
  constructor(options: LogWriterOptions) {
    if (!/^[a-z0-9.-]+$/i.test(options.source)) {
      throw new TypeError(`log source must match [a-z0-9.-]+, got "${options.source}"`);
    }
    this.dir = options.dir;
    this.source = options.source;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The file written now ("" before the first write). */
  get path(): string {
    return this.#path;
  }

  /**
   * The size at which a file is closed and the next started, in bytes:
   * `maxFileSize`, or a tenth of `maxDirSize` when that is smaller, so the
   * oldest can go a file at a time and a writer adds at most this between
   * two checks of the budget.
   */
  get fileLimit(): number {
    const budget = this.#options.maxDirSize ?? 0;
    if (budget <= 0) return this.#options.maxFileSize;
    return Math.min(
      this.#options.maxFileSize,
      Math.max(MIN_FILE_SIZE, Math.floor(budget * FILE_SHARE)),
    );
  }

  /** Records not written since this writer was made, or undefined when every one was. */
  get dropped(): DroppedRecords | undefined {
    return this.#dropped && { ...this.#dropped };
  }

  /**
   * Appends one line (which must end in `\n`), opening or rotating the file first
   * when needed. A line that fails half-way is cut back off the file.
   *
   * @throws {StorageError} when the directory cannot be made (a full disk);
   *   {UnsafeDirectoryError} when it is not the user's alone (core/private_fs.ts);
   *   {Deno.errors.*} when the file cannot be written.
   */
  write(line: string): void {
    const now = this.#now();
    const bytes = encoder.encode(line);
    if (
      !this.#file || now >= this.#dayEnd ||
      (this.#size > 0 && this.#size + bytes.length > this.fileLimit) ||
      (now - this.#lastWrite > RECHECK_MS && !existsSync(this.#path))
    ) {
      this.#open(now);
    }
    const file = this.#file!;
    let rest = bytes;
    try {
      while (rest.length > 0) rest = rest.subarray(file.writeSync(rest));
    } catch (error) {
      if (rest.length < bytes.length) this.#cutBack(file);
      throw error;
    }
    this.#size += bytes.length;
    this.#lastWrite = now;
  }

  /**
   * {@link write}, counting a line that cannot be written in {@link dropped}
   * instead of throwing.
   *
   * @returns True when the line was written.
   */
  append(line: string): boolean {
    try {
      this.write(line);
      return true;
    } catch (error) {
      const at = new Date(this.#now()).toISOString();
      const problem = storageProblem(error);
      this.#dropped = {
        records: (this.#dropped?.records ?? 0) + 1,
        since: this.#dropped?.since ?? at,
        last: at,
        ...(problem ? { problem } : {}),
        error: error instanceof Error ? error.message : String(error),
      };
      return false;
    }
  }

  /** Removes the part of a line a failed write left, or starts a new file when that fails too. */
  #cutBack(file: Deno.FsFile): void {
    try {
      file.truncateSync(this.#size);
    } catch {
      // The torn part stays, as a line readers skip; the next record opens the next file.
      this.close();
    }
  }

  /** Closes the current file. Later writes open a new one. */
  close(): void {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = undefined;
  }

  [Symbol.dispose](): void {
    this.close();
  }

  /**
   * Removes log files (of any writer) last modified before the retention.
   *
   * @returns The names removed.
   */
  prune(): string[] {
    const retention = this.#options.retentionMs;
    if (retention <= 0) return [];
    const cutoff = this.#now() - retention;
    const removed: string[] = [];
    for (const name of listLogFiles(this.dir)) {
      const path = join(this.dir, name);
      try {
        const mtime = Deno.statSync(path).mtime?.getTime() ?? Infinity;
        if (mtime < cutoff && path !== this.#path) {
          Deno.removeSync(path);
          removed.push(name);
        }
      } catch { /* removed meanwhile */ }
    }
    return removed;
  }

  /**
   * Keeps the directory under `maxDirSize` (logs/dir_budget.ts), never
   * removing the file this writer writes. Runs when a file is opened: in
   * between, this writer adds at most {@link fileLimit}.
   *
   * @returns The names removed.
   */
  keepBudget(): string[] {
    const budget = this.#options.maxDirSize ?? 0;
    if (budget <= 0) return [];
    return keepDirBudget(this.dir, { budget, room: this.fileLimit, writing: this.#path });
  }

  #open(now: number): void {
    const rotating = this.#path !== "";
    this.close();
    const day = new Date(now).toISOString().slice(0, 10);
    if (day !== this.#day) {
      this.#day = day;
      this.#dayEnd = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
      this.#seq = this.#options.shortLived ? 0 : this.#nextSeq(day);
    } else if (this.#path) {
      this.#seq++;
    }
    ensurePrivateDir(this.dir, LOG_DIR_WHAT);
    if (this.#options.shortLived) {
      // A pid is reused in time: never append to another process's file.
      for (;; this.#seq++) {
        this.#path = join(this.dir, `${day}_${this.source}_${this.#seq}${LOG_FILE_SUFFIX}`);
        try {
          this.#file = Deno.openSync(this.#path, {
            createNew: true,
            append: true,
            mode: PRIVATE_FILE_MODE,
          });
          break;
        } catch (error) {
          if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
        }
      }
      this.#size = 0;
      // A short run never lists the folder; one that fills a file keeps the budget as daemons do.
      if (rotating) this.keepBudget();
      return;
    }
    this.#path = join(this.dir, `${day}_${this.source}_${this.#seq}${LOG_FILE_SUFFIX}`);
    this.#file = Deno.openSync(this.#path, {
      create: true,
      append: true,
      mode: PRIVATE_FILE_MODE,
    });
    this.#size = this.#file.statSync().size;
    this.prune();
    this.keepBudget();
  }

  /** The first unused sequence number for this source and day (a restarted writer never appends to an old file). */
  #nextSeq(day: string): number {
    let next = 0;
    const prefix = `${day}_${this.source}_`;
    for (const name of listLogFiles(this.dir)) {
      if (!name.startsWith(prefix)) continue;
      const n = Number(name.slice(prefix.length, -LOG_FILE_SUFFIX.length));
      if (Number.isInteger(n) && n >= next) next = n + 1;
    }
    return next;
  }
}

/**
 * The names of the log files in `dir`, sorted (by day, then writer, then sequence).
 *
 * @returns `[]` when the directory does not exist.
 */
export function listLogFiles(dir: string): string[] {
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isFile && entry.name.endsWith(LOG_FILE_SUFFIX)) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names.sort(byDayWriterSequence);
}
