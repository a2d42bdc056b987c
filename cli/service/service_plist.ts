/**
 * A launchd agent (a property list in `~/Library/LaunchAgents/`) for one
 * configuration's daemon (decision 0086): loaded at login (`RunAtLoad`), kept
 * alive only when it exits unsuccessfully (`KeepAlive` `SuccessfulExit`
 * false), its output appended to a log file. Text only:
 * cli/service/service.ts writes it.
 *
 * Keys as launchd.plist(5) names them; the document is Apple's XML property
 * list, version 1.0 (the DTD `plutil` and launchd read).
 *
 * @module
 */

import { MARKER, type ServicePlan } from "./service_plan.ts";
import { STOP_TIMEOUT_S } from "./service_unit.ts";

/**
 * The property list's text.
 *
 * @param plan The service (cli/service/service_plan.ts), `platform` `macos`.
 * @returns The XML document, ending in a newline; it carries {@link MARKER} as a comment.
 * @example
 * ```ts
 * import { launchdPlist } from "./service_plist.ts";
 * const text = launchdPlist({
 *   platform: "macos", name: "dev.mcpx.p-0a1b2c3d", file: "/h/a.plist", configPath: "/p/x.json",
 *   program: ["/bin/deno", "run", "a&b"], workingDirectory: "/p", environment: {},
 *   logFile: "/h/l.log",
 * });
 * if (!text.includes("<string>a&amp;b</string>")) throw new Error(text);
 * ```
 */
export function launchdPlist(plan: ServicePlan): string {
  const env = Object.entries(plan.environment).flatMap(([name, value]) => [
    `    ${key(name)}`,
    `    ${string(value)}`,
  ]);
  const log = plan.logFile ?? "/dev/null";
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" ` +
    `"http://www.apple.com/DTDs/PropertyList-1.0.dtd">`,
    `<!-- ${comment(MARKER)} -->`,
    `<!-- The daemon of ${comment(plan.configPath)}, started deliberately: ` +
    `it does not idle-exit. -->`,
    `<plist version="1.0">`,
    `<dict>`,
    `  ${key("Label")}`,
    `  ${string(plan.name)}`,
    `  ${key("ProgramArguments")}`,
    `  <array>`,
    ...plan.program.map((arg) => `    ${string(arg)}`),
    `  </array>`,
    `  ${key("WorkingDirectory")}`,
    `  ${string(plan.workingDirectory)}`,
    `  ${key("EnvironmentVariables")}`,
    ...(env.length ? [`  <dict>`, ...env, `  </dict>`] : [`  <dict/>`]),
    `  ${key("RunAtLoad")}`,
    `  <true/>`,
    // Restarted when it fails; a clean exit (`mcpx stop`, a daemon for the edited file) stays down.
    `  ${key("KeepAlive")}`,
    `  <dict>`,
    `    ${key("SuccessfulExit")}`,
    `    <false/>`,
    `  </dict>`,
    `  ${key("ExitTimeOut")}`,
    `  <integer>${STOP_TIMEOUT_S}</integer>`,
    `  ${key("StandardOutPath")}`,
    `  ${string(log)}`,
    `  ${key("StandardErrorPath")}`,
    `  ${string(log)}`,
    `</dict>`,
    `</plist>`,
  ];
  return `${lines.join("\n")}\n`;
}

function key(name: string): string {
  return `<key>${xml(name)}</key>`;
}

function string(value: string): string {
  return `<string>${xml(value)}</string>`;
}

/** Text escaped for XML character data (XML 1.0 §2.4). */
function xml(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** Text for an XML comment, which may not hold `--` (XML 1.0 §2.5). */
function comment(value: string): string {
  return value.replace(/-(?=-)/g, "- ").replace(/-$/, "- ").replace(/[\r\n]+/g, " ");
}
