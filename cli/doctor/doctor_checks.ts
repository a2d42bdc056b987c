/**
 * The checks of `mcpx doctor`, in the order somebody would have to check by
 * hand (spec 000, "mcpx doctor"; issue 15): the runtimes, git, the
 * configuration files, the settings, every server's command, URL servers,
 * the directories, the daemon, the log index, damaged state files and the
 * copies kept of them, the schema cache, and the
 * optional integrations.
 *
 * A check is data (cli/doctor/doctor_check.ts): an id, a title and a function from
 * the context to findings. {@link DOCTOR_CHECKS} is the one list; a new kind of namespace
 * (adapters, OpenAPI documents) adds its check by adding an entry, placed
 * where a person would check it (after the server commands).
 *
 * Every `warn` and `fail` finding carries a `fix`: one that only reports a
 * problem leaves the reader where they started.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { LoadedConfig } from "../../config/types.ts";
import type { CheckedFinding, DoctorCheck, DoctorContext, Finding } from "./doctor_check.ts";
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
