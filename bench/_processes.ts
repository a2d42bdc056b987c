/**
 * The processes a bench started (private to bench/): found by the run marker
 * every one of them inherits, or by descent from a daemon, read from `/proc`,
 * and stopped by pid (never by name). On a system without `/proc` only the
 * benches' own stop commands apply.
 *
 * @module
 */

import { log } from "./_cli.ts";

/** The environment variable every process a bench starts inherits; see {@link markedProcesses}. */
export const MARKER_VAR = "MCPX_BENCH_RUN";

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Processes other than this one whose environment has `MARKER_VAR=marker` (none without /proc). */
export function markedProcesses(marker: string): number[] {
  const pids: number[] = [];
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
      try {
        const environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`);
        if (environ.split("\0").includes(`${MARKER_VAR}=${marker}`)) pids.push(Number(entry.name));
      } catch { /* gone, or not ours to read */ }
    }
  } catch { /* no /proc (not Linux): rely on the stop commands */ }
  return pids;
}

/**
 * SIGTERM to every pid `alive()` lists (after `before` sees them), then a
 * second later SIGKILL to any it still lists.
 *
 * @returns The pids first found.
 */
export async function terminate(
  alive: () => number[],
  before?: (pids: number[]) => void,
): Promise<number[]> {
  const pids = alive();
  if (pids.length) before?.(pids);
  for (const pid of pids) {
    try {
      Deno.kill(pid, "SIGTERM");
    } catch { /* gone */ }
  }
  if (pids.length) await sleep(1000);
  for (const pid of alive()) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
  return pids;
}

/** Calls `handler` on SIGINT and SIGTERM. @returns What removes the listeners. */
export function onInterrupt(handler: () => void): () => void {
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? [] : ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, handler);
  return () => {
    for (const s of signals) Deno.removeSignalListener(s, handler);
  };
}

/** One row of {@link processTable}. */
export interface ProcessInfo {
  ppid: number;
  /** Start time in clock ticks after boot (`stat` field 22): tells a reused pid from ours. */
  start: string;
  zombie: boolean;
}

/** pid → parent pid, start time and whether it is a zombie, from `/proc/<pid>/stat`. */
export function processTable(): Map<number, ProcessInfo> {
  const table = new Map<number, ProcessInfo>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(entry.name), {
        ppid: Number(rest[1]),
        start: rest[19],
        zombie: rest[0] === "Z",
      });
    } catch { /* gone */ }
  }
  return table;
}

/** The manager's children, each with its whole subtree (pids, child first). */
export function serverTrees(manager: number): number[][] {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const subtree = (pid: number): number[] => [
    pid,
    ...(children.get(pid) ?? []).flatMap(subtree),
  ];
  return (children.get(manager) ?? []).map(subtree);
}

/**
 * Every process a run started that is still alive: the ones carrying its
 * marker and those it remembered (mcporter starts its servers with a minimal
 * environment, so they do not carry the marker).
 */
export interface ProcessTracker {
  /** Remembers `pids` (each with its start time, so a reused pid is not taken for it). */
  remember(pids: number[]): void;
  /**
   * Waits up to `graceMs` (default 5000) for the run's processes to exit (the
   * stop commands return before they have), then stops the rest with
   * {@link terminate}, logging each one's pid and command line as `when: …`.
   *
   * @returns The pids it had to stop.
   */
  sweep(when: string, graceMs?: number): Promise<number[]>;
}

/** A {@link ProcessTracker} for the run whose marker is `marker`. */
export function trackProcesses(marker: string): ProcessTracker {
  const seen = new Map<number, string>();
  return {
    remember(pids) {
      const table = processTable();
      for (const pid of pids) {
        const p = table.get(pid);
        if (p) seen.set(pid, p.start);
      }
    },
    async sweep(when, graceMs = 5000) {
      const alive = () => {
        const table = processTable();
        const ours = new Set(markedProcesses(marker)); // the daemons, and mcpx's servers
        for (const [pid, start] of seen) if (table.get(pid)?.start === start) ours.add(pid);
        return [...ours].filter((pid) => table.has(pid) && !table.get(pid)!.zombie);
      };
      for (const until = Date.now() + graceMs; alive().length && Date.now() < until;) {
        await sleep(100);
      }
      return await terminate(alive, (first) => {
        const cmd = (pid: number) => {
          try {
            return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ").trim();
          } catch {
            return "?";
          }
        };
        log(
          `${when}: stopping ${first.length} leftover process(es): ${
            first.map((p) => `${p} ${cmd(p)}`).join("; ")
          }`,
        );
      });
    },
  };
}
