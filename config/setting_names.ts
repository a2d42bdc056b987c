/**
 * How a setting's dotted name is spelled as an environment variable and as a
 * flag (config/settings.ts re-exports both).
 *
 * @module
 */

/**
 * The environment variable of a setting: `MCPX_` + segments in UPPER_SNAKE.
 *
 * @param name Dotted name, e.g. `daemon.idleTimeout`.
 * @returns e.g. `MCPX_DAEMON_IDLE_TIMEOUT`.
 * @example
 * ```ts
 * import { settingEnvName } from "./setting_names.ts";
 * if (settingEnvName("catalog.budget") !== "MCPX_CATALOG_BUDGET") throw new Error();
 * ```
 */
export function settingEnvName(name: string): string {
  let spelled = envNames.get(name);
  if (spelled === undefined) {
    spelled = `MCPX_${splitWords(name).join("_").toUpperCase()}`;
    envNames.set(name, spelled);
  }
  return spelled;
}

/**
 * The generated flag of a setting: `--` + segments in kebab-case.
 *
 * @param name Dotted name, e.g. `daemon.idleTimeout`.
 * @returns e.g. `--daemon-idle-timeout`.
 * @example
 * ```ts
 * import { settingFlagName } from "./setting_names.ts";
 * if (settingFlagName("catalog.budget") !== "--catalog-budget") throw new Error();
 * ```
 */
export function settingFlagName(name: string): string {
  let spelled = flagNames.get(name);
  if (spelled === undefined) {
    spelled = `--${splitWords(name).join("-").toLowerCase()}`;
    flagNames.set(name, spelled);
  }
  return spelled;
}

// Every command spells every setting's names while it parses and resolves settings, and a warm
// process (the front, the daemon) runs many commands: each spelling is worked out once.
const envNames = new Map<string, string>();
const flagNames = new Map<string, string>();

function splitWords(name: string): string[] {
  return name.split(".").flatMap((seg) => seg.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(" "));
}
