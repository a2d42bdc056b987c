/**
 * The daemon's diagnostic records: one JSON line per record, on stderr, or
 * appended to a file (an auto-started daemon has no terminal:
 * `<stateDir>/daemons/<fingerprint>.log`).
 *
 * @module
 */

/** Record levels, lowest first. */
export type Level = "debug" | "info" | "warn" | "error";

let sink: Deno.FsFile | undefined;
const encoder = new TextEncoder();

/** Sends every later record to `path` (appending, created when missing). */
export function logToFile(path: string): void {
  sink = Deno.openSync(path, { create: true, append: true, write: true });
}

/** Writes one record: `{"time","level","msg",...attrs}`. Never throws. */
export function log(level: Level, msg: string, attrs: Record<string, unknown> = {}): void {
  try {
    const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...attrs }) + "\n";
    if (sink) sink.writeSync(encoder.encode(line));
    else console.error(line.trimEnd());
  } catch { /* the sink is gone */ }
}
