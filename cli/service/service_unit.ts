/**
 * A systemd user unit for one configuration's daemon (decision 0086): the
 * foreground daemon, restarted when it fails and only then, wanted by the
 * user's `default.target` so it starts at login once enabled. Text only:
 * cli/service/service.ts writes it.
 *
 * Quoting follows systemd.syntax(7) and systemd.service(5), "Command lines":
 * a word with anything but `[A-Za-z0-9_@+=:,./-]` is double-quoted with `\`
 * and `"` escaped; `%` is written `%%` (specifiers) and `$` `$$` (variable
 * expansion) everywhere they would be read.
 *
 * @module
 */

import { MARKER, type ServicePlan } from "./service_plan.ts";

/** How long systemd waits for the daemon to stop its servers before SIGKILL (seconds). */
export const STOP_TIMEOUT_S = 30;
/** systemd's pause before restarting a daemon that failed (seconds). */
export const RESTART_DELAY_S = 5;

/**
 * The unit file's text.
 *
 * @param plan The service (cli/service/service_plan.ts), `platform` `linux`.
 * @returns The unit, ending in a newline; its first line is {@link MARKER}.
 * @example
 * ```ts
 * import { systemdUnit } from "./service_unit.ts";
 * const text = systemdUnit({
 *   platform: "linux", name: "mcpx-p-0a1b2c3d.service", file: "/h/u", configPath: "/p/x.json",
 *   program: ["/bin/deno", "run", "/my dir/a%b.js"], workingDirectory: "/p",
 *   environment: { HOME: "/h" },
 * });
 * if (!text.includes('ExecStart=/bin/deno run "/my dir/a%%b.js"\n')) throw new Error(text);
 * if (!text.includes("Restart=on-failure\n")) throw new Error(text);
 * ```
 */
export function systemdUnit(plan: ServicePlan): string {
  const lines = [
    `# ${MARKER}`,
    `# The daemon of ${oneLine(plan.configPath)}, started deliberately: it does not idle-exit.`,
    "[Unit]",
    `Description=${specifiers(oneLine(`mcpx daemon for ${plan.configPath}`))}`,
    "",
    "[Service]",
    "Type=simple",
    `WorkingDirectory=${specifiers(oneLine(plan.workingDirectory))}`,
    ...Object.entries(plan.environment).map(([name, value]) =>
      `Environment=${word(`${name}=${value}`)}`
    ),
    `ExecStart=${plan.program.map(word).join(" ")}`,
    // A clean exit (`mcpx stop`, a daemon for the edited file taking over) is left alone.
    "Restart=on-failure",
    `RestartSec=${RESTART_DELAY_S}`,
    // SIGTERM to the daemon alone: it stops its servers' process groups itself, in order.
    "KillMode=mixed",
    `TimeoutStopSec=${STOP_TIMEOUT_S}`,
    "",
    "[Install]",
    "WantedBy=default.target",
  ];
  return `${lines.join("\n")}\n`;
}

/** One word of a command line or an assignment, quoted when it must be. */
function word(value: string): string {
  const escaped = specifiers(value).replaceAll("$", "$$$$");
  if (/^[A-Za-z0-9_@%+=:,./$-]+$/.test(escaped)) return escaped;
  const inner = escaped.replaceAll("\\", "\\\\").replaceAll('"', '\\"')
    .replaceAll("\n", "\\n").replaceAll("\t", "\\t");
  return `"${inner}"`;
}

/** `%` doubled, so systemd reads no specifier. */
function specifiers(value: string): string {
  return value.replaceAll("%", "%%");
}

/** A value for a line that cannot be continued: newlines become spaces. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ");
}
