/**
 * `mcpx doctor [--online]`: runs the checks of cli/doctor/doctor_checks.ts in order
 * and prints each finding with what to do about it; `--json` prints
 * ops/doctor_ops.ts `DoctorOutput`. Exit 1 when any finding is `fail`, else 0
 * (a `warn` works, but probably not as meant). Starts no daemon and no
 * server; reaches the network only with `--online`.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { DOCTOR_CHECKS, runDoctor } from "./doctor_checks.ts";
import type { CheckedFinding } from "./doctor_check.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { doctor } from "../../ops/doctor_ops.ts";
import { type Answered, failed, ok } from "../../ops/outcome.ts";

const MARKS = { ok: "ok  ", info: "info", warn: "WARN", fail: "FAIL" } as const;

/**
 * Answers `mcpx doctor`: `{ ok, checks, findings }`.
 *
 * @returns `ok`, or `failed` (exit 1) when any finding is `fail`.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof doctor>,
): Promise<Answered<OutputOf<typeof doctor>>> {
  const findings = await runDoctor(ctx, { online: input.online === true });
  const fine = !findings.some((f) => f.status === "fail");
  const output: OutputOf<typeof doctor> = {
    ok: fine,
    checks: DOCTOR_CHECKS.map(({ id, title }) => ({ id, title })),
    findings,
  };
  return fine ? ok(output) : failed(output);
}

/** The human report ({@link render}). */
export function text(output: OutputOf<typeof doctor>): string {
  return render(output.findings as CheckedFinding[]);
}

/** The human report: each check's title, then its findings, each fix under its finding. */
export function render(findings: readonly CheckedFinding[]): string {
  const lines: string[] = [];
  for (const check of DOCTOR_CHECKS) {
    const own = findings.filter((f) => f.check === check.id);
    if (own.length === 0) continue;
    lines.push(`${check.title}:`);
    for (const f of own) {
      // The subject leads unless the message names it already.
      const lead = f.subject && !f.message.includes(f.subject) ? `${f.subject}: ` : "";
      lines.push(`  ${MARKS[f.status]}  ${lead}${f.message}`);
      if (f.fix) lines.push(`        fix: ${f.fix}`);
    }
  }
  const count = (s: CheckedFinding["status"]) => findings.filter((f) => f.status === s).length;
  const fails = count("fail");
  const warns = count("warn");
  lines.push(
    "",
    fails
      ? `${fails} problem(s) to fix${warns ? `, ${warns} warning(s)` : ""}.`
      : warns
      ? `Nothing broken; ${warns} warning(s).`
      : "Nothing to fix.",
  );
  return lines.join("\n") + "\n";
}
