/**
 * The parts of the report every bench writes (private to bench/): PASS/MISS
 * targets, the note on the machine's load, the results files, and the
 * machine and mcpx commit a results file records.
 *
 * @module
 */

import type { Peer } from "./peer.ts";
import { RESULTS, ROOT } from "./_paths.ts";

/** One PASS/MISS line of a report. */
export interface Target {
  target: string;
  status: "PASS" | "MISS" | "n/a";
  detail: string;
}

/**
 * The closing lines of a report: the PASS/MISS targets under `heading`, the
 * notes (left out when there are none) and the bench's total time.
 *
 * @param totalSeconds The whole bench's wall time, in seconds.
 */
export function reportTail(
  targets: readonly Target[],
  notes: readonly string[],
  totalSeconds: number,
  heading = "## Targets",
): string[] {
  return [
    heading,
    "",
    ...targets.map((t) => `- ${t.status} — ${t.target}: ${t.detail}`),
    ...(notes.length ? ["", "## Notes", "", ...notes.map((n) => `- ${n}`)] : []),
    "",
    `Total bench time: ${totalSeconds.toFixed(1)} s.`,
  ];
}

/** The note on the machine's load during the run. */
export const loadNote = (start: number[], end: number[]): string =>
  `Load average (1 min) ${start[0].toFixed(2)} at start, ${end[0].toFixed(2)} at end, on ` +
  `${navigator.hardwareConcurrency} CPUs: other work on the machine widens the p90s.`;

/**
 * Writes a bench's report into {@link RESULTS} as `<name>-<time>.md` and its
 * data as `<name>-<time>.json` (indented, newline-terminated); the time is
 * the ISO time with `:` and `.` written `-`.
 *
 * @param name The bench's file stem, e.g. `big_result`.
 * @param markdown The report, written as given.
 * @param data What the JSON file holds.
 * @returns The report's path.
 */
export async function writeResults(name: string, markdown: string, data: unknown): Promise<string> {
  await Deno.mkdir(RESULTS, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const report = `${RESULTS}${name}-${stamp}.md`;
  await Deno.writeTextFile(report, markdown);
  await Deno.writeTextFile(`${RESULTS}${name}-${stamp}.json`, JSON.stringify(data, null, 2) + "\n");
  return report;
}

/** The machine and the mcpx commit, for a results file. */
export async function machineAndCommit(
  loadStart: number[],
  loadEnd: number[],
  peer: Peer | undefined,
) {
  const git = async (...args: string[]) => {
    const o = await new Deno.Command("git", { args: ["-C", ROOT, ...args], stderr: "null" })
      .output().catch(() => undefined);
    return o?.success ? new TextDecoder().decode(o.stdout).trim() : undefined;
  };
  return {
    machine: {
      os: `${Deno.build.os} ${Deno.build.arch}`,
      cpus: navigator.hardwareConcurrency,
      loadavg_at_start: loadStart,
      loadavg_at_end: loadEnd,
      deno: Deno.version.deno,
      node: peer?.nodeVersion,
    },
    mcpx: {
      commit: await git("rev-parse", "HEAD"),
      dirty: !!(await git("status", "--porcelain", "--", ".")),
    },
  };
}
