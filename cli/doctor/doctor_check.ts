/**
 * What a check of `mcpx doctor` is: an id, a title and a function from the
 * {@link DoctorContext} to {@link Finding}s. Each check module
 * (cli/doctor/doctor_system.ts, cli/doctor/doctor_config.ts, …) implements one or more;
 * cli/doctor/doctor_checks.ts lists and runs them.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { LoadedConfig } from "../../config/types.ts";
import type { DOCTOR_STATUSES } from "../../ops/doctor_ops.ts";

/** How a finding stands: `fail` makes `mcpx doctor` exit 1. */
export type DoctorStatus = typeof DOCTOR_STATUSES[number];

/** One finding ({@link DoctorCheck.run} returns them; `check` is filled in by cli/doctor/doctor_checks.ts runDoctor). */
export interface Finding {
  status: DoctorStatus;
  /** What it is about (a server name, a file, a directory), if not the whole check. */
  subject?: string;
  /** What was found, one sentence. */
  message: string;
  /** What to do; required for `warn` and `fail`. */
  fix?: string;
}

/** What every check reads: the command's context, and whether to reach the network. */
export interface DoctorContext {
  cli: CliContext;
  /** `--online`: URL servers and the npm registry are asked (short timeouts). */
  online: boolean;
  /**
   * The configuration, or undefined when it does not load (the `config`
   * check reports why; checks that need it then say they were skipped).
   */
  config(): Promise<LoadedConfig | undefined>;
  /** Why {@link config} is undefined: the error loading it threw. */
  configError(): Promise<Error | undefined>;
}

/** One check. */
export interface DoctorCheck {
  /** Stable id, used in `--json` (`server-commands`). */
  id: string;
  /** What it checks, a few words (`every server's command is installed`). */
  title: string;
  run(dc: DoctorContext): Promise<Finding[]>;
}

/** A finding with the id of the check that made it. */
export type CheckedFinding = Finding & { check: string };

/** The finding a check that needs the configuration gives when it did not load. */
export const NO_CONFIG_SKIP: Finding = {
  status: "info",
  message: "skipped: the configuration did not load (see the configuration check)",
};
