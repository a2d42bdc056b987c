/**
 * Whether output is JSON when the settings cannot be resolved: from flags and
 * the environment alone, each value read by the settings' own parser, so that
 * `MCPX_OUTPUT_JSON=yes` means for an error what it means for an answer
 * (issue 24). The one decision otherwise is cli/context_settings.ts `json()`.
 *
 * @module
 */

import { parseSettingValue, settingDeclaration, settingEnvSpelling } from "../config/settings.ts";

/**
 * The output mode from flags and the environment alone (no file): what
 * `SettingsContext.json` (cli/context_settings.ts) falls back to, and what a command line that did
 * not parse is judged by. A value is read by the settings' own parser
 * (config/setting_value.ts); one it refuses counts as not JSON.
 *
 * @param flags Setting values from flags, keyed by dotted name (`output.json`).
 * @param env The environment (`MCPX_OUTPUT_JSON`, `MCPX_OUTPUT_FORMAT`).
 * @returns True for JSON output.
 */
export function jsonWithoutFiles(
  flags: Record<string, string | boolean>,
  env: Record<string, string>,
): boolean {
  const valueOf = (name: string): unknown => {
    if (Object.hasOwn(flags, name)) return flags[name];
    try {
      const variable = settingEnvSpelling(name, env);
      return variable === undefined ? undefined : env[variable];
    } catch {
      return undefined; // two spellings disagree: the settings' error says so where it is read
    }
  };
  const parsed = (name: string): unknown => {
    const raw = valueOf(name);
    if (raw === undefined) return undefined;
    try {
      return parseSettingValue(settingDeclaration(name), raw);
    } catch {
      return undefined;
    }
  };
  return parsed("output.json") === true || parsed("output.format") === "json";
}
