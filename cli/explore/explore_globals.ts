/**
 * The options `mcpx explore` was started with, as the words every command it
 * runs repeats (decision 0082): `mcpx --config x.json explore` then `types fs`
 * runs, and its footer prints, `mcpx --config x.json types fs`, so the
 * footer is the command that really gives the same screen at a shell.
 *
 * @module
 */

import type { ContextOptions } from "../context_settings.ts";
import { settingFlagName } from "../../config/settings.ts";

/**
 * The global options of a command line, as words to put after `mcpx`.
 *
 * @param options The explorer's own context options (`ctx.optionsWith({})`):
 *   `configPath` (`--config`), `session` (`--session`), and the setting flags
 *   as parsed, each spelt as typed (`--json`, `--profile`) or by its setting's
 *   flag name.
 * @returns The words, each flag followed by its value (`--flag=value` when the
 *   value starts with `-`, so it is not read as a flag).
 * @example
 * ```ts
 * import { globalWords } from "./explore_globals.ts";
 * const words = globalWords({
 *   configPath: "x.json",
 *   flags: { "output.json": true, "profiles.active": "web" },
 *   flagSpellings: { "output.json": "--json", "profiles.active": "--profile" },
 * });
 * const expected = "--config x.json --json --profile web";
 * if (words.join(" ") !== expected) throw new Error(words.join(" "));
 * ```
 */
export function globalWords(
  options: Pick<ContextOptions, "configPath" | "session" | "flags" | "flagSpellings">,
): string[] {
  const words: string[] = [];
  const valued = (flag: string, value: string) =>
    value.startsWith("-") ? words.push(`${flag}=${value}`) : words.push(flag, value);
  if (options.configPath !== undefined) valued("--config", options.configPath);
  if (options.session !== undefined) valued("--session", options.session);
  for (const [setting, value] of Object.entries(options.flags)) {
    const typed = options.flagSpellings?.[setting];
    // A short spelling (`-n`) is a command's own flag, which explore has none of.
    const flag = typed?.startsWith("--") ? typed : settingFlagName(setting);
    // A repeatable flag (`--profile a --profile b`) arrives as the array parseArgs gives.
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const one of values) {
      if (one === true) words.push(flag);
      else if (typeof one === "string") valued(flag, one);
    }
  }
  return words;
}
