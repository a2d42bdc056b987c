/**
 * What `mcpx service install` writes, before it is text: the service of one
 * configuration's daemon as data — its name, where its file goes, the
 * program it runs, its working directory and environment — from which
 * cli/service/service_unit.ts renders a systemd user unit and
 * cli/service/service_plist.ts a launchd agent (decision 0086).
 *
 * The name identifies the configuration by its real path, not by its
 * fingerprint: an edited file keeps its service. The program is the
 * foreground daemon (`mcpx daemon`, which never idle-exits), run as the
 * installed `mcpx` runs it: this Deno's absolute path, `run -A`, this
 * checkout's deno.json and cli/mcpx.bundle.js.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { basename, dirname, join } from "node:path";
import type { SERVICE_PLATFORMS } from "../../ops/service_words.ts";

/** `linux`: a systemd user unit; `macos`: a launchd agent (ops/service_ops.ts). */
export type Platform = typeof SERVICE_PLATFORMS[number];

/**
 * The line (a `#` comment in a unit, an XML comment in a plist) that marks a
 * file as one `mcpx service install` wrote: `uninstall` removes only files
 * carrying it.
 */
export const MARKER = "mcpx-service: written by `mcpx service install`; " +
  "`mcpx service uninstall` removes it";

/** The variables a service's daemon is given, when set where `install` runs. */
export const CARRIED_VARIABLES = [
  "PATH",
  "HOME",
  // Where the state (and so the socket) and cache are: the CLI must find the daemon there.
  "XDG_CONFIG_HOME",
  "XDG_STATE_HOME",
  "XDG_CACHE_HOME",
  "MCPX_PATHS_STATE",
  "MCPX_STATE_DIR",
  "MCPX_PATHS_CACHE",
  "MCPX_CACHE_DIR",
  // Deno's own cache, where mcpx's npm packages are.
  "DENO_DIR",
] as const;

/** One configuration's daemon as a service. */
export interface ServicePlan {
  platform: Platform;
  /** The unit's name (`mcpx-<dir>-<id>.service`) or the agent's label (`dev.mcpx.<dir>-<id>`). */
  name: string;
  /** The absolute path the file is written to. */
  file: string;
  /** The configuration file the daemon serves (absolute, as resolved). */
  configPath: string;
  /** The daemon's argv, absolute program first. */
  program: string[];
  /** The daemon's working directory (where `install` ran: a project's file is found from it). */
  workingDirectory: string;
  /** The daemon's environment: {@link CARRIED_VARIABLES} that were set, by name. */
  environment: Record<string, string>;
  /** macOS: the file launchd appends the daemon's stdout and stderr to. */
  logFile?: string;
}

/** What {@link servicePlan} needs to know about the configuration and the machine. */
export interface PlanInput {
  platform: Platform;
  /** The configuration's path, as loaded. */
  configPath: string;
  /** Its real path (symlinks resolved): what the name's id hashes. */
  realPath: string;
  /**
   * `project`: found from the working directory, so the unit leaves `--config`
   * out and the daemon finds it the same way, keeping its trust check
   * (decision 0018); anything else is named with `--config`.
   */
  origin: "project" | "user" | "named";
  cwd: string;
  env: Record<string, string | undefined>;
  /** The Deno executable (default `Deno.execPath()`). */
  deno?: string;
  /** The mcpx checkout, no trailing `/` (default: the one this module is in). */
  root?: string;
}

/**
 * The service for one configuration's daemon.
 *
 * @returns The plan; its `file` honours `XDG_CONFIG_HOME` on Linux.
 * @throws {Error} When `HOME` is unset or not absolute (there is no place for the file).
 * @example
 * ```ts
 * import { servicePlan } from "./service_plan.ts";
 * const plan = await servicePlan({
 *   platform: "linux", configPath: "/p/.mcp.json", realPath: "/p/.mcp.json", origin: "named",
 *   cwd: "/p", env: { HOME: "/h", PATH: "/bin" }, deno: "/bin/deno", root: "/m",
 * });
 * if (!/^mcpx-p-[0-9a-f]{8}\.service$/.test(plan.name)) throw new Error(plan.name);
 * if (plan.program.at(-1) !== "daemon" || plan.program.at(-2) !== "/p/.mcp.json") throw new Error();
 * ```
 */
export async function servicePlan(input: PlanInput): Promise<ServicePlan> {
  const home = input.env.HOME;
  if (!home?.startsWith("/")) {
    throw new Error(
      `HOME is ${home ? `"${home}", not an absolute path` : "unset"}; ` +
        "a service's file goes under HOME: set it",
    );
  }
  const id = `${slug(input.configPath)}-${await shortId(input.realPath)}`;
  const root = input.root ?? fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
  const program = [
    input.deno ?? Deno.execPath(),
    "run",
    "-A",
    "--config",
    `${root}/deno.json`,
    `${root}/cli/mcpx.bundle.js`,
    ...(input.origin === "project" ? [] : ["--config", input.configPath]),
    "daemon",
  ];
  const environment: Record<string, string> = {};
  for (const name of CARRIED_VARIABLES) {
    const value = input.env[name];
    if (value) environment[name] = value;
  }
  const common = {
    configPath: input.configPath,
    program,
    workingDirectory: input.cwd,
    environment,
  };
  if (input.platform === "linux") {
    const config = input.env.XDG_CONFIG_HOME?.startsWith("/")
      ? input.env.XDG_CONFIG_HOME
      : join(home, ".config");
    const name = `mcpx-${id}.service`;
    return { platform: "linux", name, file: join(config, "systemd", "user", name), ...common };
  }
  const name = `dev.mcpx.${id}`;
  return {
    platform: "macos",
    name,
    file: join(home, "Library", "LaunchAgents", `${name}.plist`),
    logFile: join(home, "Library", "Logs", "mcpx", `${name}.log`),
    ...common,
  };
}

/**
 * A readable part of the name: the configuration's directory (a project's
 * folder; the one above `.mcpx/`), lower-cased to `[a-z0-9-]`, at most 24
 * characters; `config` when nothing is left.
 */
function slug(configPath: string): string {
  let dir = dirname(configPath);
  if (basename(dir) === ".mcpx") dir = dirname(dir);
  const words = basename(dir).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return words.slice(0, 24).replace(/-+$/, "") || "config";
}

/** The first 8 hex digits of SHA-256 of the configuration's real path. */
async function shortId(realPath: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(realPath));
  return [...new Uint8Array(digest).subarray(0, 4)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}
