/**
 * The tables and targets of `deno task bench:scripts` (bench/scripts.ts;
 * private to bench/), computed from what it measured: the launcher rows, the
 * rows of 100 sequential calls, and issue 3's targets (bench/README.md,
 * "Scripts").
 *
 * @module
 */

import { median, ms, percentile, ratio, type Summary } from "./stats.ts";
import type { Target } from "./_report.ts";

/** Calls per script run and per process loop. */
export const CALLS = 100;
/** Issue 3's targets, in ms. */
const OVERHEAD_TARGET_MS = 30;
const PER_CALL_TARGET_MS = 2;

/** `script.permissions` levels measured in the sandbox: nothing granted, and read. */
export const SANDBOXED = ["none", "read"] as const;

/** One command timed: times in ms. */
export interface Measured {
  command: string;
  summary: Summary;
  timesMs: number[];
  runs: number;
  warmup: number;
}
/** One command timed, or why it was not. */
export type Result = Measured | { command: string; error: string };
/** Whether `r` was timed. */
export const ok = (r: Result | undefined): r is Measured => !!r && "summary" in r;

/** What the bench measured, in ms. */
export interface ScriptsMeasures {
  /**
   * Each command by key: `floor`, `version`, `run`, `bare`, `sandbox <level>`,
   * `script`, `callOne`, `callLoop`, `peerOne`, `peerLoop`; absent when not run.
   */
  r: Record<string, Result | undefined>;
  /** `mcpx --json run ./ret.ts`: wall time, and the durationMs it reports for the script process. */
  split: { wallMs: number[]; childMs: number[] };
  /** The 100-call script's own loop: total and per-call times of every timed run. */
  inside?: { loopMs: number[]; perCallMs: number[] };
}

const med = (x: Result | undefined) => ok(x) ? x.summary.median : undefined;
const cell = (x: Result | undefined, key: "median" | "p90" = "median") =>
  !x ? "not run" : ok(x) ? ms(x.summary[key]) : "error";
const num = (v: number | undefined) => ms(v ?? NaN);
const diff = (a?: number, b?: number) => a === undefined || b === undefined ? undefined : a - b;

/** The launcher table's rows: command, median, p90, − floor, ÷ floor. */
export function launcherRows({ r, split }: ScriptsMeasures): string[][] {
  const floorMs = med(r.floor);
  const runMs = med(r.run);
  const rows: string[][] = [
    ["floor: `deno run -A ret.ts`", cell(r.floor), cell(r.floor, "p90"), "—", "1.00×"],
    [
      "`mcpx --version` (CLI start-up, no work)",
      cell(r.version),
      cell(r.version, "p90"),
      num(diff(med(r.version), floorMs)),
      ratio(med(r.version), floorMs),
    ],
    [
      "`mcpx run ./ret.ts`",
      cell(r.run),
      cell(r.run, "p90"),
      num(diff(runMs, floorMs)),
      ratio(runMs, floorMs),
    ],
    [
      "`mcpx run --no-launcher ./ret.ts` (script run bare)",
      cell(r.bare),
      cell(r.bare, "p90"),
      num(diff(med(r.bare), floorMs)),
      ratio(med(r.bare), floorMs),
    ],
  ];
  for (const level of SANDBOXED) {
    const x = r[`sandbox ${level}`];
    rows.push([
      `\`mcpx run --script-permissions ${level} ./ret.ts\` (sandboxed; − \`all\` ${
        num(diff(med(x), runMs))
      } ms)`,
      cell(x),
      cell(x, "p90"),
      num(diff(med(x), floorMs)),
      ratio(med(x), floorMs),
    ]);
  }
  const childMed = split.childMs.length ? median(split.childMs) : undefined;
  const wallMed = split.wallMs.length ? median(split.wallMs) : undefined;
  if (childMed !== undefined && wallMed !== undefined) {
    rows.push(
      [
        "`mcpx --json run ./ret.ts`: the script process alone (its `durationMs`)",
        ms(childMed),
        ms(percentile(split.childMs, 90)),
        num(diff(childMed, floorMs)),
        ratio(childMed, floorMs),
      ],
      [
        "`mcpx --json run ./ret.ts`: whole command (timed around Deno.Command)",
        ms(wallMed),
        ms(percentile(split.wallMs, 90)),
        num(diff(wallMed, floorMs)),
        ratio(wallMed, floorMs),
      ],
    );
  }
  return rows;
}

/**
 * The table of {@link CALLS} calls: approach, total, per call, one process's
 * median (p90), ÷ the mcpx script's whole run. `peerRan` says whether the
 * peer was measured.
 */
export function callRows({ r, inside }: ScriptsMeasures, peerRan: boolean): string[][] {
  const scriptTotal = med(r.script);
  const insideLoop = inside ? median(inside.loopMs) : undefined;
  const insidePerCall = inside ? median(inside.perCallMs) : undefined;
  const perCall = (total?: number) => num(total === undefined ? undefined : total / CALLS);
  const oneCall = (x: Result | undefined) =>
    !x ? "—" : ok(x) ? `${ms(x.summary.median)} (${ms(x.summary.p90)})` : "error";
  return [
    [
      `mcpx run: one script, ${CALLS} calls (whole run)`,
      num(scriptTotal),
      perCall(scriptTotal),
      "—",
      "1.00×",
    ],
    [
      `… the script's own loop (performance.now(); median single call ${num(insidePerCall)} ms)`,
      num(insideLoop),
      perCall(insideLoop),
      "—",
      ratio(insideLoop, scriptTotal),
    ],
    [
      `mcpx call × ${CALLS} processes`,
      num(med(r.callLoop)),
      perCall(med(r.callLoop)),
      oneCall(r.callOne),
      ratio(med(r.callLoop), scriptTotal),
    ],
    [
      `mcporter call × ${CALLS} processes (keep-alive daemon)`,
      peerRan ? num(med(r.peerLoop)) : "not run",
      peerRan ? perCall(med(r.peerLoop)) : "—",
      peerRan ? oneCall(r.peerOne) : "—",
      ratio(med(r.peerLoop), scriptTotal),
    ],
  ];
}

/**
 * Issue 3's targets: launcher overhead (median `mcpx run ./ret.ts` − median
 * `deno run -A ret.ts`) under 30 ms, and under 2 ms per call inside the
 * script (its loop ÷ {@link CALLS}).
 */
export function scriptsTargets({ r, inside }: ScriptsMeasures): Target[] {
  const floorMs = med(r.floor);
  const runMs = med(r.run);
  const overhead = diff(runMs, floorMs);
  const insideLoop = inside ? median(inside.loopMs) : undefined;
  const insidePerCall = inside ? median(inside.perCallMs) : undefined;
  const perCallInside = insideLoop === undefined ? undefined : insideLoop / CALLS;
  return [
    {
      target: `launcher overhead under ${OVERHEAD_TARGET_MS} ms (median \`mcpx run ./ret.ts\` − ` +
        "median `deno run -A ret.ts`)",
      status: overhead === undefined ? "n/a" : overhead < OVERHEAD_TARGET_MS ? "PASS" : "MISS",
      detail: `${num(runMs)} − ${num(floorMs)} = ${num(overhead)} ms`,
    },
    {
      target: `under ${PER_CALL_TARGET_MS} ms per call inside the script (its loop ÷ ${CALLS})`,
      status: perCallInside === undefined
        ? "n/a"
        : perCallInside < PER_CALL_TARGET_MS
        ? "PASS"
        : "MISS",
      detail: `${num(insideLoop)} ms ÷ ${CALLS} = ${
        perCallInside === undefined ? "—" : perCallInside.toFixed(2)
      } ms (median single call ${num(insidePerCall)} ms)`,
    },
  ];
}
