/**
 * `mcpx doctor`: one command for "it does not work" (spec 000, "mcpx
 * doctor"; issue 15). The checks themselves are cli/doctor/doctor_checks.ts.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";

/** How one finding of `mcpx doctor` stands. */
export const DOCTOR_STATUSES = ["ok", "info", "warn", "fail"] as const;

/** One finding: what a check saw about one thing, and what to do about it. */
export const DoctorFinding = z.object({
  check: z.string().describe("the check's id, e.g. `server-commands`"),
  status: z.enum(DOCTOR_STATUSES).describe(
    "ok; info (worth knowing, nothing to do); warn (works, but probably not as meant); fail (needs fixing)",
  ),
  subject: z.string().optional().describe("what it is about: a server, a file, a directory"),
  message: z.string().describe("what was found"),
  fix: z.string().optional().describe("what to do about it (every warn and fail has one)"),
});

/** `mcpx doctor --json`. */
export const DoctorOutput = z.object({
  ok: z.boolean().describe("false when any finding is `fail` (the command exits 1)"),
  checks: z.array(z.object({ id: z.string(), title: z.string() })).describe(
    "the checks run, in order",
  ),
  findings: z.array(DoctorFinding),
});

/** `mcpx doctor`. */
export const doctor = defineOp({
  name: "doctor",
  description:
    "Checks, in the order a person would by hand, what mcpx needs: runtimes, configuration files, settings, every server's command, URL servers (with `online`), directories, the daemon, the log index, damaged state files (and the copies of them mcpx moved aside), the schema cache and optional integrations. Each finding says what to do; exit 1 when something needs fixing.",
  where: "cli",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({
    online: z.boolean().optional().describe(
      "also reach URL servers and the npm registry (short timeouts)",
    ),
  }),
  output: DoctorOutput,
  cli: {
    command: "doctor",
    module: "./doctor/doctor.ts",
    usage: "mcpx doctor [--online]",
    summary: "check what mcpx needs and say what to fix (exit 1 when something does)",
    flags: {
      online: {
        field: "online",
        type: "boolean",
      },
    },
  },
});
