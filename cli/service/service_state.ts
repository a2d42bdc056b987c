/**
 * Where a service stands: whether its file is there and is the one `install`
 * would write now, what the service manager says of it (systemd's
 * `is-enabled`/`is-active`, launchd's `print`), and the commands that enable,
 * verify, follow and disable it (decision 0086). The manager is asked, never
 * told, except by {@link runCommands} for `--now`.
 *
 * @module
 */

import { MARKER, type Platform, type ServicePlan } from "./service_plan.ts";

/**
 * The file's state: `absent`; `current` (ours, and what install writes now);
 * `stale` (ours, but install would write something else now: another Deno,
 * checkout, directory or environment); `foreign` (not written by mcpx).
 */
export type FileState = "absent" | "current" | "stale" | "foreign";

/** What the service manager says; `unknown` (with `managerNote`) when it cannot be asked. */
export interface ManagerState {
  /** systemd: `is-enabled`'s word (`enabled`, `disabled`, `not-found`…); launchd: `loaded` or `not-loaded`. */
  enabled: string;
  /** systemd: `is-active`'s word (`active`, `inactive`, `failed`…); launchd: its `state` (`running`…). */
  running: string;
  /** Why `unknown`: the manager is missing, unreachable or not this machine's. */
  managerNote?: string;
}

/** The commands a person runs, each a shell line. */
export interface ServiceCommands {
  /** Load and start it, now and at every login. */
  enable: string[];
  /** See that it runs. */
  verify: string;
  /** Read its log. */
  log: string;
  /** Stop it and keep it from starting at login. */
  disable: string[];
}

/** The service manager of the machine mcpx runs on (`macos` on Darwin, else `linux`). */
export function hostPlatform(): Platform {
  return Deno.build.os === "darwin" ? "macos" : "linux";
}

/**
 * The state of the file at `plan.file` against the text install would write.
 *
 * @throws {Deno.errors.PermissionDenied} When the file exists but cannot be read.
 */
export function fileState(plan: ServicePlan, want: string): FileState {
  let text: string;
  try {
    text = Deno.readTextFileSync(plan.file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "absent";
    throw error;
  }
  if (!text.includes(MARKER)) return "foreign";
  return text === want ? "current" : "stale";
}

/**
 * The commands for `plan`, as shell lines.
 *
 * @param uid The user's id for launchd's `gui/<uid>` domain (default: this process's).
 */
export function serviceCommands(plan: ServicePlan, uid = Deno.uid()): ServiceCommands {
  if (plan.platform === "linux") {
    const unit = shellWord(plan.name);
    return {
      enable: ["systemctl --user daemon-reload", `systemctl --user enable --now ${unit}`],
      verify: `systemctl --user status ${unit}`,
      log: `journalctl --user -u ${unit} -f`,
      disable: [`systemctl --user disable --now ${unit}`],
    };
  }
  const domain = `gui/${uid ?? "$(id -u)"}`;
  return {
    enable: [`launchctl bootstrap ${domain} ${shellWord(plan.file)}`],
    verify: `launchctl print ${shellWord(`${domain}/${plan.name}`)}`,
    log: `tail -f ${shellWord(plan.logFile ?? "/dev/null")}`,
    disable: [`launchctl bootout ${shellWord(`${domain}/${plan.name}`)}`],
  };
}

/**
 * Asks the service manager about `plan`'s service, with a 5 s limit per question.
 *
 * @returns Its words, or `unknown` with the reason when it cannot be asked.
 */
export async function managerState(plan: ServicePlan): Promise<ManagerState> {
  const host = hostPlatform();
  if (plan.platform !== host) {
    return unknown(`a ${plan.platform} service; this machine's manager is ${managerOf(host)}`);
  }
  if (plan.platform === "linux") {
    const enabled = await ask("systemctl", ["--user", "is-enabled", plan.name]);
    if ("missing" in enabled) return unknown(enabled.missing);
    const active = await ask("systemctl", ["--user", "is-active", plan.name]);
    if ("missing" in active) return unknown(active.missing);
    // Both print one word on stdout whatever their exit code; none means the bus was not reached.
    if (!enabled.out || !active.out) {
      return unknown(`systemctl --user could not be asked: ${enabled.err || active.err}`);
    }
    return { enabled: enabled.out, running: active.out };
  }
  const uid = Deno.uid();
  const printed = await ask("launchctl", ["print", `gui/${uid}/${plan.name}`]);
  if ("missing" in printed) return unknown(printed.missing);
  if (printed.code !== 0) return { enabled: "not-loaded", running: "inactive" };
  const state = printed.all.match(/^\s*state = (\S+)/m)?.[1] ?? "unknown";
  return { enabled: "loaded", running: state };
}

/** What one command run by {@link runCommands} did. */
export interface Ran {
  command: string;
  code: number;
  /** Its stdout and stderr, trimmed. */
  output: string;
}

/**
 * Runs shell lines from {@link serviceCommands} (`--now`) in order through
 * `sh -c`, stopping at the first that fails.
 *
 * @returns What each one that ran did.
 */
export async function runCommands(lines: string[]): Promise<Ran[]> {
  const ran: Ran[] = [];
  for (const line of lines) {
    const result = await ask("sh", ["-c", line], 60_000);
    if ("missing" in result) {
      ran.push({ command: line, code: 127, output: result.missing });
      break;
    }
    ran.push({ command: line, code: result.code, output: result.all.trim() });
    if (result.code !== 0) break;
  }
  return ran;
}

function managerOf(platform: Platform): string {
  return platform === "linux" ? "systemd" : "launchd";
}

function unknown(managerNote: string): ManagerState {
  return { enabled: "unknown", running: "unknown", managerNote };
}

type Asked = { code: number; out: string; err: string; all: string } | { missing: string };

async function ask(program: string, args: string[], limitMs = 5_000): Promise<Asked> {
  try {
    const { code, stdout, stderr } = await new Deno.Command(program, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(limitMs),
    }).output();
    const decoder = new TextDecoder();
    const out = decoder.decode(stdout).trim();
    const errors = decoder.decode(stderr).trim();
    const err = errors.split("\n")[0] ?? "";
    return { code, out: out.split("\n")[0] ?? "", err, all: `${out}\n${errors}` };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { missing: `${program} is not installed` };
    return { missing: `${program} ${args.join(" ")} failed: ${(error as Error).message}` };
  }
}

/** A word for a POSIX shell: single-quoted unless plainly safe. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
