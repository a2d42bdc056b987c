/**
 * The log directory's budget (setting `logging.maxDirSize`, decision 0063):
 * everything in the directory — the log files, index.db, questions.db and the
 * copies of a damaged one moved aside (decision 0019) — holds at most the
 * budget, and the log files at most {@link LOG_FILES_SHARE} of it, because
 * index.db, built from them, takes up to about twice as much again. The
 * writers (logs/writer.ts) enforce it by removing moved-aside copies first
 * (oldest first: what they held was already reported lost), then log files,
 * least recently written first; the index drops a removed file's rows at its
 * next ingest (logs/ingest.ts) and gives their pages back.
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import { byDayWriterSequence, LOG_FILE_SUFFIX } from "./_log_files.ts";
import { isDamagedCopyName } from "../core/damaged_json.ts";

/**
 * The share of the budget the log files may take (measured: index.db is
 * 1.06× the files for short records and about 2× for 2 KB ones, whose rows
 * fill a 4 KiB page and leave their overflow page half empty).
 */
export const LOG_FILES_SHARE = 0.3;

/** What {@link keepDirBudget} keeps. */
export interface DirBudget {
  /** Bytes the whole directory may hold. */
  budget: number;
  /** Bytes to leave free for the file being written (a writer's rotation size). */
  room: number;
  /** The path of the file being written: never removed. */
  writing: string;
}

/**
 * Removes moved-aside copies of damaged state files (`<name>.damaged-<time>`),
 * oldest first, then log files (of any writer), least recently written first
 * (then by day, writer and sequence), until the directory holds at most
 * `budget - room` bytes and its log files at most
 * `budget * LOG_FILES_SHARE - room`.
 *
 * @param dir The logs directory.
 * @param limits The budget, the room to leave, the file not to remove.
 * @returns The names removed (none when the directory cannot be read).
 */
export function keepDirBudget(dir: string, limits: DirBudget): string[] {
  let total = 0;
  let logBytes = 0;
  const candidates: { name: string; size: number; mtime: number; log: boolean }[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isFile) continue;
      const path = join(dir, entry.name);
      try {
        const stat = Deno.statSync(path);
        total += stat.size;
        const log = entry.name.endsWith(LOG_FILE_SUFFIX);
        if (log) logBytes += stat.size;
        if ((log || isDamagedCopyName(entry.name)) && path !== limits.writing) {
          const mtime = stat.mtime?.getTime() ?? 0;
          candidates.push({ name: entry.name, size: stat.size, mtime, log });
        }
      } catch { /* removed meanwhile */ }
    }
  } catch {
    return [];
  }
  candidates.sort((a, b) =>
    Number(a.log) - Number(b.log) || a.mtime - b.mtime || byDayWriterSequence(a.name, b.name)
  );
  const removed: string[] = [];
  const logShare = Math.floor(limits.budget * LOG_FILES_SHARE) - limits.room;
  for (const file of candidates) {
    if (total <= limits.budget - limits.room && logBytes <= logShare) break;
    try {
      Deno.removeSync(join(dir, file.name));
      removed.push(file.name);
    } catch { /* removed meanwhile */ }
    total -= file.size;
    if (file.log) logBytes -= file.size;
  }
  return removed;
}
