/**
 * A process's memory as `/proc` reports it, in KiB (private to bench/): RSS
 * and PSS for the idle-memory bench, the `status` fields for the large-result
 * bench. RSS counts every shared page in full in every process; PSS divides
 * each shared page among its sharers, so a sum of PSS over processes is what
 * the machine spends (proc(5), `smaps_rollup`).
 *
 * @module
 */

/** RSS (`VmRSS`) and PSS (`Pss` of `smaps_rollup`) in KiB. */
export interface Mem {
  rss: number;
  pss: number;
}

/** No memory: what a process that is gone has. */
export const ZERO: Mem = { rss: 0, pss: 0 };

/** The sum of two {@link Mem}s. */
export const add = (a: Mem, b: Mem): Mem => ({ rss: a.rss + b.rss, pss: a.pss + b.pss });

/** The KiB of the `name:  N kB` line of a `/proc` file's text, or undefined without one. */
function kibField(text: string, name: string): number | undefined {
  const m = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text);
  return m ? Number(m[1]) : undefined;
}

/** VmRSS and Pss of a process, in KiB ({@link ZERO} when gone; a missing field is 0). */
export function memoryKiB(pid: number): Mem {
  try {
    return {
      rss: kibField(Deno.readTextFileSync(`/proc/${pid}/status`), "VmRSS") ?? 0,
      pss: kibField(Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`), "Pss") ?? 0,
    };
  } catch {
    return { ...ZERO };
  }
}

/** Reads `/proc/<pid>/status` fields in KiB (`VmRSS`, `VmHWM`); NaN when absent. */
export function procStatusKiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    return kibField(Deno.readTextFileSync(`/proc/${pid}/status`), field) ?? NaN;
  } catch {
    return NaN;
  }
}
