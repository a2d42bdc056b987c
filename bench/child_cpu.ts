/**
 * The CPU time (user and system) of this process's waited-for children, as
 * `getrusage(RUSAGE_CHILDREN)` counts it (POSIX; microseconds), read through
 * Deno's FFI from the C library. A bench reads it before and after one child
 * ran to get that child's CPU time: the CLI process's own work, not the
 * daemon's (which is not our child) and not other load on the machine, so a
 * CPU ratio holds up where a wall ratio drifts with the load (issue 26).
 *
 * Needs `--allow-ffi` (bench tasks run with `-A`). Where the C library cannot
 * be opened (another OS), {@link childCpu} is undefined and benches report
 * wall time only.
 *
 * @module
 */

/** CPU time so far, in ms. */
export interface CpuTime {
  userMs: number;
  sysMs: number;
}

const RUSAGE_CHILDREN = -1;
/** `struct rusage` is two `timeval`s then 14 longs: 18 × 8 bytes on 64-bit systems. */
const RUSAGE_WORDS = 18;

type Getrusage = (who: number, buffer: Uint8Array<ArrayBuffer>) => number;

function open(): Getrusage | undefined {
  for (const path of ["libc.so.6", "libSystem.dylib", "libc.so"]) {
    try {
      const lib = Deno.dlopen(path, {
        getrusage: { parameters: ["i32", "buffer"], result: "i32" },
      });
      return (who, buffer) => lib.symbols.getrusage(who, buffer) as number;
    } catch { /* not this one */ }
  }
  return undefined;
}

const getrusage = open();

/**
 * Reads the children's CPU time so far, or undefined where it cannot be read.
 *
 * @example
 * ```ts
 * import { childCpu } from "./child_cpu.ts";
 * const before = childCpu();
 * if (before !== undefined && !(before.userMs >= 0 && before.sysMs >= 0)) throw new Error();
 * ```
 */
export function childCpu(): CpuTime | undefined {
  if (!getrusage) return undefined;
  const words = new BigInt64Array(RUSAGE_WORDS);
  if (getrusage(RUSAGE_CHILDREN, new Uint8Array(words.buffer)) !== 0) return undefined;
  const ms = (seconds: bigint, micros: bigint) => Number(seconds) * 1000 + Number(micros) / 1000;
  return { userMs: ms(words[0], words[1]), sysMs: ms(words[2], words[3]) };
}

/** The CPU time (user + system, ms) between two readings; undefined if either is. */
export function cpuBetween(before?: CpuTime, after?: CpuTime): number | undefined {
  if (!before || !after) return undefined;
  return after.userMs - before.userMs + after.sysMs - before.sysMs;
}
