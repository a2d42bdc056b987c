/**
 * The daemon's diagnostic records: one JSON line per record, on stderr, or
 * appended to a file (an auto-started daemon has no terminal:
 * `<stateDir>/daemons/<fingerprint>.log`).
 *
 * @module
 */

/** Record levels, lowest first. */
export type Level = "debug" | "info" | "warn" | "error";

const RANK: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };
let threshold = RANK.info;
let sink: Deno.FsFile | undefined;

/** Records below `level` are dropped from now on (setting `logging.level`). */
export function setLogLevel(level: Level): void {
  threshold = RANK[level] ?? RANK.info;
}
const encoder = new TextEncoder();

/** Sends every later record to `path` (appending, created when missing). */
export function logToFile(path: string): void {
  sink = Deno.openSync(path, { create: true, append: true, write: true });
}

/** Writes one record: `{"time","level","msg",...attrs}`. Never throws. */
export function log(level: Level, msg: string, attrs: Record<string, unknown> = {}): void {
  if (RANK[level] < threshold) return;
  try {
    const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...attrs }) + "\n";
    if (sink) sink.writeSync(encoder.encode(line));
    else console.error(line.trimEnd());
  } catch { /* the sink is gone */ }
}
