/**
 * `mcpx service install | uninstall | status` (spec 000, "Service
 * installation"; decision 0086): this configuration's daemon as a service of
 * the user's session. `install` writes a systemd user unit or a launchd agent
 * (cli/service/service_plan.ts, service_unit.ts, service_plist.ts) and answers
 * the commands that enable, verify and follow it; `status` says whether the
 * file is there and current and what the manager says; `uninstall` removes a
 * file mcpx wrote and refuses any other. The manager is run only with `--now`.
 *
 * @module
 */

import { dirname } from "node:path";
import type { CliContext } from "../context.ts";
import { McpxError, UsageError } from "../../core/errors.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { service } from "../../ops/service_ops.ts";
import { SERVICE_ACTIONS } from "../../ops/service_words.ts";
import { type Answered, failed, ok } from "../../ops/outcome.ts";
import { CARRIED_VARIABLES, type Platform, type ServicePlan, servicePlan } from "./service_plan.ts";
import { systemdUnit } from "./service_unit.ts";
import { launchdPlist } from "./service_plist.ts";
import {
  fileState,
  hostPlatform,
  managerState,
  runCommands,
  serviceCommands,
} from "./service_state.ts";
import { referencedVariables } from "../../config/compiled.ts";
import { userEnvPath } from "../../config/user_env.ts";

type ServiceAnswer = OutputOf<typeof service>;

const USAGE = "`mcpx service install`, `mcpx service uninstall` or `mcpx service status`";

/** `--json` prints install's and uninstall's acknowledgements on one line; status indented. */
export function jsonLine(input: InputOf<typeof service>): boolean {
  return input.action !== "status";
}

/**
 * Runs one `mcpx service` action.
 *
 * @returns `ok` with the service's state after the action; `failed` when a `--now` command failed.
 * @throws {UsageError} For a missing or unknown action, a flag the action does not take,
 *   `--now` for another machine's manager, or no configuration to serve.
 * @throws {McpxError} `service-foreign` when the file at the service's path was not written
 *   by mcpx (install and uninstall leave it alone).
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof service>,
): Promise<Answered<ServiceAnswer>> {
  if (input.action === undefined) throw new UsageError(`say what to do: ${USAGE}`);
  const action = SERVICE_ACTIONS.find((a) => a === input.action);
  if (action === undefined) throw new UsageError(`unknown action "${input.action}"; use ${USAGE}`);
  if (input.dryRun && action !== "install") {
    throw new UsageError(`--dry-run is for \`mcpx service install\`, not ${action}`);
  }
  if (input.now && action === "status") {
    throw new UsageError("--now is for install and uninstall, not status");
  }
  const platform: Platform = input.platform ?? hostPlatform();
  if (input.now && platform !== hostPlatform()) {
    throw new UsageError(
      `--now runs this machine's service manager, which cannot load a ${platform} service; ` +
        `leave out --now (or --platform ${platform})`,
    );
  }
  const plan = await planHere(ctx, platform);
  const want = platform === "linux" ? systemdUnit(plan) : launchdPlist(plan);
  const commands = serviceCommands(plan);
  const base = {
    action,
    platform,
    name: plan.name,
    file: plan.file,
    configPath: plan.configPath,
    commands,
    notes: notCarried(ctx, plan),
  };
  const state = fileState(plan, want);
  if (action === "status") {
    return ok({ ...base, installed: state, ...await managerState(plan) });
  }
  if (state === "foreign") throw foreign(plan);
  if (action === "install") {
    if (input.dryRun) return ok({ ...base, installed: state, wrote: false, text: want });
    await Deno.mkdir(dirname(plan.file), { recursive: true });
    if (plan.logFile) await Deno.mkdir(dirname(plan.logFile), { recursive: true });
    await Deno.writeTextFile(plan.file, want, { mode: 0o644 });
    const answer = { ...base, installed: "current" as const, wrote: true };
    if (!input.now) return ok(answer);
    const ran = await runCommands(commands.enable);
    return ran.every((r) => r.code === 0) ? ok({ ...answer, ran }) : failed({ ...answer, ran });
  }
  if (state === "absent") return ok({ ...base, installed: state, removed: false });
  if (!input.now) {
    // Disabling needs the file: once it is gone, `systemctl --user disable` cannot find the unit
    // and leaves its links behind. A service the manager knows is disabled first.
    const manager = await managerState(plan);
    if (IN_USE.has(manager.enabled) || IN_USE.has(manager.running)) {
      throw new McpxError(
        "service-enabled",
        `${plan.name} is ${manager.enabled}/${manager.running}: disable it first ` +
          `(${commands.disable.join(" && ")}), then uninstall; or \`mcpx service uninstall ` +
          `--now\`, which does both`,
      );
    }
  }
  const ran = input.now ? await runCommands(commands.disable) : undefined;
  if (ran && ran.some((r) => r.code !== 0)) {
    return failed({ ...base, installed: state, removed: false, ran });
  }
  await Deno.remove(plan.file);
  return ok({ ...base, installed: "absent", removed: true, ...(ran ? { ran } : {}) });
}

/** What the manager says of a service it has loaded (systemd's and launchd's words). */
const IN_USE = new Set([
  "enabled",
  "enabled-runtime",
  "linked",
  "active",
  "activating",
  "loaded",
  "running",
]);

/** The service for the configuration this command line resolved. */
async function planHere(ctx: CliContext, platform: Platform): Promise<ServicePlan> {
  const config = await ctx.config();
  if (config.path === null) {
    throw new UsageError(
      "no configuration file here for a service to serve; run this where `mcpx ls` finds " +
        "yours, or name one: `mcpx --config <file> service install`",
    );
  }
  const origin = ctx.origin(config.path);
  try {
    return await servicePlan({
      platform,
      configPath: config.path,
      realPath: config.realPath ?? config.path,
      origin: origin === "project" ? "project" : origin === "user" ? "user" : "named",
      cwd: ctx.cwd,
      env: ctx.env,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function foreign(plan: ServicePlan): McpxError {
  return new McpxError(
    "service-foreign",
    `${plan.file} exists and was not written by \`mcpx service install\` (it has no ` +
      `"mcpx-service:" line); mcpx leaves it alone: move it away or remove it yourself`,
  );
}

/**
 * The variables the configuration names in `${…}` that this shell sets but the
 * service will not have: a service starts from the manager's environment, not
 * this shell's, and mcpx writes no secret into its file.
 */
function notCarried(ctx: CliContext, plan: ServicePlan): string[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(plan.configPath);
  } catch {
    return [];
  }
  const carried = new Set<string>(CARRIED_VARIABLES);
  const missing = referencedVariables(text).filter((name) =>
    !carried.has(name) && ctx.env[name] !== undefined
  );
  if (missing.length === 0) return [];
  const file = userEnvPath(ctx.env) ?? "~/.config/mcpx/.env";
  return [
    `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} set in this shell, and the ` +
    `configuration uses ${missing.length === 1 ? "it" : "them"}; the service does not inherit ` +
    `this shell: put ${missing.length === 1 ? "it" : "them"} in ${file}, which its daemon reads`,
  ];
}

/**
 * The terminal's rendering: install's file and the commands to run next
 * (`--dry-run`: the file itself on stdout); uninstall's removal and the
 * disable command; status's three answers.
 */
export function text(value: ServiceAnswer): string | { out?: string; err?: string } {
  const c = value.commands;
  const notes = value.notes.map((n) => `note: ${n}\n`).join("");
  const ran = (value.ran ?? []).map((r) =>
    `$ ${r.command}${r.code ? ` (exit ${r.code})` : ""}\n${r.output ? `${r.output}\n` : ""}`
  ).join("");
  if (value.action === "install" && value.text !== undefined) {
    return { out: value.text, err: `# would be written to ${value.file}\n${notes}` };
  }
  if (value.action === "install") {
    return `wrote ${value.file} (the daemon of ${value.configPath})\n` + ran +
      (value.ran ? "" : `enable and start it:  ${c.enable.join(" && ")}\n`) +
      `verify it:            ${c.verify}\n` +
      `read its log:         ${c.log}\n` + notes;
  }
  if (value.action === "uninstall") {
    if (!value.removed) return `no service installed for ${value.configPath} (${value.file})\n`;
    return ran + `removed ${value.file}\n` +
      (value.ran ? "" : `stop it and keep it from starting at login: ${c.disable.join(" && ")}\n`);
  }
  const file = {
    absent: "not installed (`mcpx service install` writes it)",
    current: "installed",
    stale: "installed, but stale: install would write something else now " +
      "(`mcpx service install` rewrites it)",
    foreign: "not mcpx's: a file mcpx did not write is there",
  }[value.installed];
  return `${value.name} (${value.platform === "linux" ? "systemd user unit" : "launchd agent"})\n` +
    `  file:     ${value.file}: ${file}\n` +
    `  enabled:  ${value.enabled}\n` +
    `  running:  ${value.running}\n` +
    (value.managerNote ? `  (${value.managerNote})\n` : "") + notes;
}
