/**
 * Timing that cannot flatter (issue 26): every contender of a comparison,
 * the floor included, runs once per round, in the same order, round after
 * round (A B C A B C …), so a slow moment of the machine lands on all of
 * them. Each run is a whole process, timed from spawn to exit (wall), with
 * its own CPU time (user + system, bench/child_cpu.ts), and checked: a run
 * that exits non-zero or prints the wrong thing stops the bench rather than
 * being timed.
 *
 * A ratio is the median of the per-round ratios against the floor, so the
 * floor of each ratio was timed beside what it divides. The verdict is
 * withheld when the floor itself was unsteady (its p90 over its median above
 * {@link MAX_FLOOR_SPREAD}) or the machine was busy before the bench began
 * (a 1-minute load average of half the cores or more: 1 on 2 cores). The
 * load at the end is reported, not judged: the bench's own runs raise it.
 *
 * @module
 */

import { childCpu, cpuBetween } from "./child_cpu.ts";
import { median, percentile } from "./stats.ts";

/** One command of a comparison. */
export interface Contender {
  /** The row's name. */
  label: string;
  /** argv; `argv[0]` is the program. */
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** What a correct run prints on stdout; default: anything. */
  expect?: RegExp;
  /**
   * How many copies one run starts at once (default 1): the run's wall time
   * is until the last exits, its CPU time that of all of them.
   */
  concurrency?: number;
}

/** One run: its wall time and its CPU time (user + system), both ms. */
export interface Sample {
  wallMs: number;
  /** Undefined where CPU time cannot be read (bench/child_cpu.ts). */
  cpuMs?: number;
}

/** A floor whose p90 is more than this times its median gives no verdict. */
export const MAX_FLOOR_SPREAD = 1.5;

/** A run that failed its check: the bench stops with this. */
export class RunFailed extends Error {
  constructor(label: string, why: string) {
    super(`${label}: ${why}`);
    this.name = "RunFailed";
  }
}

/**
 * Runs `contender` once.
 *
 * @throws {RunFailed} When it (or any of its concurrent copies) cannot
 *   start, exits non-zero, outlives `timeoutMs`, or prints what `expect`
 *   does not match.
 */
export async function runOnce(contender: Contender, timeoutMs = 60_000): Promise<Sample> {
  const [program, ...args] = contender.argv;
  const spawn = () =>
    new Deno.Command(program, {
      args,
      env: contender.env,
      clearEnv: true,
      cwd: contender.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(timeoutMs),
    }).output();
  const before = childCpu();
  const started = performance.now();
  let outs: Deno.CommandOutput[];
  try {
    outs = await Promise.all(Array.from({ length: contender.concurrency ?? 1 }, spawn));
  } catch (error) {
    throw new RunFailed(contender.label, (error as Error).message);
  }
  const wallMs = performance.now() - started;
  const cpuMs = cpuBetween(before, childCpu());
  for (const out of outs) {
    const stdout = new TextDecoder().decode(out.stdout);
    if (out.code !== 0 || (contender.expect && !contender.expect.test(stdout))) {
      const stderr = new TextDecoder().decode(out.stderr);
      throw new RunFailed(
        contender.label,
        `exit ${out.code}; stdout ${JSON.stringify(stdout.slice(0, 300))}; ` +
          `stderr ${JSON.stringify(stderr.slice(0, 300))}`,
      );
    }
  }
  return cpuMs === undefined ? { wallMs } : { wallMs, cpuMs };
}

/**
 * Runs every contender once per round, in order, `warmup` untimed rounds
 * then `runs` timed ones.
 *
 * @returns `rounds[r][c]`: round `r`'s sample of contender `c`.
 * @throws {RunFailed} As {@link runOnce}.
 */
export async function interleave(
  contenders: readonly Contender[],
  options: { runs: number; warmup: number; onRound?: (done: number) => void },
): Promise<Sample[][]> {
  const rounds: Sample[][] = [];
  for (let r = 0; r < options.warmup + options.runs; r++) {
    const round: Sample[] = [];
    for (const contender of contenders) round.push(await runOnce(contender));
    if (r >= options.warmup) rounds.push(round);
    options.onRound?.(r + 1);
  }
  return rounds;
}

/** One contender's figures against the floor of the same rounds. */
export interface Against {
  wallMs: number;
  wallP90Ms: number;
  cpuMs?: number;
  /** Median of the per-round wall ratios contender / floor. */
  wallRatio: number;
  /** Median of the per-round CPU ratios; undefined without CPU times. */
  cpuRatio?: number;
}

/**
 * Contender `index` of `rounds` against contender `floor`.
 *
 * @example
 * ```ts
 * import { against } from "./interleaved.ts";
 * const rounds = [[{ wallMs: 10, cpuMs: 8 }, { wallMs: 13, cpuMs: 10 }],
 *   [{ wallMs: 20, cpuMs: 8 }, { wallMs: 25, cpuMs: 12 }]];
 * const a = against(rounds, 1, 0);
 * if (a.wallRatio !== 1.275 || a.cpuRatio !== 1.375) throw new Error(JSON.stringify(a));
 * ```
 */
export function against(rounds: Sample[][], index: number, floor: number): Against {
  const wall = rounds.map((r) => r[index].wallMs);
  const cpu = rounds.map((r) => r[index].cpuMs).filter((c): c is number => c !== undefined);
  const cpuRatios = rounds
    .map((r) => (r[index].cpuMs ?? NaN) / (r[floor].cpuMs ?? NaN))
    .filter((x) => Number.isFinite(x));
  return {
    wallMs: median(wall),
    wallP90Ms: percentile(wall, 90),
    ...(cpu.length === rounds.length ? { cpuMs: median(cpu) } : {}),
    wallRatio: median(rounds.map((r) => r[index].wallMs / r[floor].wallMs)),
    ...(cpuRatios.length === rounds.length ? { cpuRatio: median(cpuRatios) } : {}),
  };
}

/** The floor's spread: its p90 over its median (1.0 is perfectly steady). */
export function floorSpread(rounds: Sample[][], floor: number): number {
  const wall = rounds.map((r) => r[floor].wallMs);
  return percentile(wall, 90) / median(wall);
}

/**
 * Why a run gives no verdict, or undefined when it may give one: an
 * unsteady floor, or a machine busy before the bench began.
 *
 * @param load The 1-minute load averages that show other work: the one at
 *   the start (the bench's own runs raise the later ones).
 * @param cores The machine's CPU count.
 */
export function noVerdict(spread: number, load: number[], cores: number): string | undefined {
  if (spread > MAX_FLOOR_SPREAD) {
    return `the floor's p90 is ${spread.toFixed(2)}× its median (over ${MAX_FLOOR_SPREAD}×)`;
  }
  // Quiet, as issue 26 states it: a load below 1 on 2 cores, so below half the cores.
  const quiet = cores / 2;
  const busy = load.find((l) => l >= quiet);
  if (busy !== undefined) {
    return `the load average reached ${
      busy.toFixed(2)
    } on ${cores} cores (quiet is below ${quiet})`;
  }
  return undefined;
}
