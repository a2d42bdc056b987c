/**
 * The checks of `mcpx doctor`, in the order somebody would have to check by
 * hand (spec 000, "mcpx doctor"; issue 15): the runtimes, git, the
 * configuration files, the settings, every server's command, URL servers,
 * the directories, the daemon, the log index, damaged state files and the
 * copies kept of them, the schema cache, and the
 * optional integrations.
 *
 * A check is data: an id, a title and a function from the {@link DoctorContext}
 * to findings. {@link DOCTOR_CHECKS} is the one list; a new kind of namespace
 * (adapters, OpenAPI documents) adds its check by adding an entry, placed
 * where a person would check it (after the server commands).
 *
 * Every `warn` and `fail` finding carries a `fix`: one that only reports a
 * problem leaves the reader where they started.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import type { LoadedConfig } from "../config/types.ts";
import type { DOCTOR_STATUSES } from "../ops/doctor_ops.ts";
import { directoriesCheck, gitCheck, integrationsCheck, runtimesCheck } from "./doctor_system.ts";
import {
  configCheck,
  serverCommandsCheck,
  settingsCheck,
  urlServersCheck,
} from "./doctor_config.ts";
import { daemonCheck, logIndexCheck, schemaCacheCheck } from "./doctor_state.ts";
import { declaredCheck } from "./doctor_declared.ts";
import { damagedStateCheck } from "./doctor_damaged.ts";

/** How a finding stands: `fail` makes `mcpx doctor` exit 1. */
export type DoctorStatus = typeof DOCTOR_STATUSES[number];

/** One finding ({@link DoctorCheck.run} returns them; `check` is filled in by {@link runDoctor}). */
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

/** Every check, in the order they run and print. */
export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  runtimesCheck,
  gitCheck,
  configCheck,
  settingsCheck,
  serverCommandsCheck,
  declaredCheck,
  urlServersCheck,
  directoriesCheck,
  daemonCheck,
  logIndexCheck,
  damagedStateCheck,
  schemaCacheCheck,
  integrationsCheck,
];

/** A finding with the id of the check that made it. */
export type CheckedFinding = Finding & { check: string };

/**
 * Runs `checks` in order. A check that throws becomes one `fail` finding
 * naming the error, so one broken check never hides the others.
 *
 * @param cli The command's context.
 * @param options `online`, and the checks to run (default {@link DOCTOR_CHECKS}).
 * @returns Every finding, in check order.
 */
export async function runDoctor(
  cli: CliContext,
  options: { online?: boolean; checks?: readonly DoctorCheck[] } = {},
): Promise<CheckedFinding[]> {
  type Loaded = { config?: LoadedConfig; error?: Error };
  let loaded: Promise<Loaded> | undefined;
  const load = () => loaded ??= loadForDoctor(cli);
  const dc: DoctorContext = {
    cli,
    online: options.online ?? false,
    config: async () => (await load()).config,
    configError: async () => (await load()).error,
  };
  const out: CheckedFinding[] = [];
  for (const check of options.checks ?? DOCTOR_CHECKS) {
    let findings: Finding[];
    try {
      findings = await check.run(dc);
    } catch (error) {
      findings = [{
        status: "fail",
        message: `the check itself failed: ${(error as Error).message}`,
        fix: "report this as a bug in mcpx doctor, with the message",
      }];
    }
    out.push(...findings.map((f) => ({ check: check.id, ...f })));
  }
  return out;
}

/**
 * The configuration for the checks: as commands see it (untrusted servers
 * marked); when only the settings that marking needs fail (a bad `MCPX_…`
 * value), as the file says, so the settings check reports the setting and the
 * server checks still run; else the error, which the config check reports.
 */
async function loadForDoctor(cli: CliContext): Promise<{ config?: LoadedConfig; error?: Error }> {
  try {
    return { config: await cli.config() };
  } catch (error) {
    const settingsError = await cli.settings().then(() => undefined, (e: Error) => e);
    if (settingsError?.message === (error as Error).message) {
      try {
        return { config: await cli.loadedConfig() };
      } catch (fileError) {
        return { error: fileError as Error };
      }
    }
    return { error: error as Error };
  }
}

/** The finding a check that needs the configuration gives when it did not load. */
export const NO_CONFIG_SKIP: Finding = {
  status: "info",
  message: "skipped: the configuration did not load (see the configuration check)",
};
