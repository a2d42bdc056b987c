/**
 * Whether a process exists, and the pid a `pid:` scope key names.
 *
 * @module
 */

import process from "node:process";

/**
 * Whether process `pid` exists. On Linux `/proc/<pid>` answers without
 * signalling anything; elsewhere `kill(pid, 0)` (POSIX: no signal is sent),
 * where `EPERM` means another user's process, which is alive.
 */
export function pidAlive(pid: number): boolean {
  if (Deno.build.os === "linux") {
    try {
      Deno.statSync(`/proc/${pid}`);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** The pid a `pid:<n>` scope key names, else undefined. */
export function keyedPid(key: string): number | undefined {
  if (!key.startsWith("pid:")) return undefined;
  const pid = Number(key.slice(4));
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}
