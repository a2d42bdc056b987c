/**
 * What one client scenario run gave, from the `checks.json` the runner
 * writes (either runner version): the row of docs/conformance.md
 * (conformance/doc_sections.ts `ScenarioRow`).
 *
 * @module
 */

import { join } from "node:path";
import type { ScenarioRow } from "./doc_sections.ts";

/** A check as the runner writes it in `checks.json`. */
export interface Check {
  name?: string;
  id?: string;
  status?: string;
  description?: string;
  errorMessage?: string;
}

/**
 * One result from a run's checks: INFO and SKIPPED checks are not counted;
 * a scenario passes when at least one check was counted, none failed, and
 * the runner said so. A run whose checks were all skipped did not measure
 * anything (a skills scenario whose client never listed skills): it fails,
 * with the runner's reasons for skipping.
 *
 * @example
 * ```ts
 * import { resultOf } from "./run_checks.ts";
 * const r = resultOf({ scenario: "s", revision: "2026-07-28" }, [{ id: "a", status: "SUCCESS" }], true, "");
 * if (!r.passed || r.checksTotal !== 1) throw new Error();
 * ```
 */
export function resultOf(
  run: { scenario: string; revision: string },
  checks: Check[] | undefined,
  runnerOk: boolean,
  runnerSaid: string,
): ScenarioRow {
  const row = { scenario: run.scenario, revision: run.revision };
  if (!checks) {
    return {
      ...row,
      passed: false,
      checksPassed: 0,
      checksTotal: 0,
      failures: [
        `the runner gave no checks: ${runnerSaid.trim().split("\n").slice(-3).join(" / ")}`,
      ],
    };
  }
  const counted = checks.filter((c) => c.status !== "INFO" && c.status !== "SKIPPED");
  const failed = counted.filter((c) => c.status === "FAILURE");
  const reason = (c: Check) => `${c.name ?? c.id}: ${c.errorMessage ?? c.description ?? "failed"}`;
  const skipped = counted.length === 0
    ? checks.filter((c) => c.status === "SKIPPED").map((c) => `skipped, ${reason(c)}`)
    : [];
  return {
    ...row,
    passed: runnerOk && counted.length > 0 && failed.length === 0,
    checksPassed: counted.filter((c) => c.status === "SUCCESS").length,
    checksTotal: counted.length,
    // One line per distinct reason: a scenario may fail the same way once per header or call.
    failures: [...new Set([...failed.map(reason), ...skipped])],
  };
}

/**
 * The checks.json the runner wrote under `dir` (one run per directory), or
 * undefined; an `auth/*` scenario's lies one folder deeper (`auth/<name>-<time>/`).
 */
export async function readChecks(dir: string, depth = 2): Promise<Check[] | undefined> {
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isDirectory) continue;
      const text = await Deno.readTextFile(join(dir, entry.name, "checks.json")).catch(() => "");
      if (text) return JSON.parse(text);
      const deeper = depth > 1 ? await readChecks(join(dir, entry.name), depth - 1) : undefined;
      if (deeper) return deeper;
    }
  } catch { /* no results */ }
  return undefined;
}
