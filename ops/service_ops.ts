/**
 * `mcpx service install | uninstall | status`: this configuration's daemon as
 * a service of the user's session — a systemd user unit on Linux, a launchd
 * agent on macOS — started deliberately, so it stays up (spec 000, "Service
 * installation"; decision 0086). It runs in the CLI and needs no daemon.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";

import { SERVICE_ACTIONS, SERVICE_PLATFORMS } from "./service_words.ts";

export { SERVICE_ACTIONS, SERVICE_PLATFORMS };

/** What every `mcpx service` action answers. */
export const ServiceOutput = z.object({
  action: z.enum(SERVICE_ACTIONS),
  platform: z.enum(SERVICE_PLATFORMS),
  name: z.string().describe("the unit's name (mcpx-<dir>-<id>.service) or the agent's label"),
  file: z.string().describe("where the unit or property list is (absolute)"),
  configPath: z.string().describe("the configuration whose daemon the service runs"),
  installed: z.enum(["absent", "current", "stale", "foreign"]).describe(
    "the file after the action: absent, current (what install writes now), stale (ours, but " +
      "install would write something else now) or foreign (not written by mcpx)",
  ),
  wrote: z.boolean().optional().describe("install: the file was written"),
  removed: z.boolean().optional().describe("uninstall: the file was removed"),
  text: z.string().optional().describe("install --dry-run: the file install would write"),
  enabled: z.string().optional().describe(
    "status: the manager's word (systemd is-enabled; launchd loaded or not-loaded), or unknown",
  ),
  running: z.string().optional().describe(
    "status: the manager's word (systemd is-active; launchd's state), or unknown",
  ),
  managerNote: z.string().optional().describe("why enabled and running are unknown"),
  commands: z.object({
    enable: z.array(z.string()),
    verify: z.string(),
    log: z.string(),
    disable: z.array(z.string()),
  }).describe(
    "shell lines that enable and start the service, verify it, follow its log, disable it",
  ),
  ran: z.array(z.object({ command: z.string(), code: z.number().int(), output: z.string() }))
    .optional().describe("--now: the manager's commands run, in order, up to the first failure"),
  notes: z.array(z.string()).describe("what the service will not get from this shell, and why"),
});

/** `mcpx service`. */
export const service = defineOp({
  name: "service",
  description:
    "This configuration's daemon as a service started at login and kept up: install writes a " +
    "systemd user unit (Linux) or a launchd agent (macOS) running `mcpx daemon` and prints the " +
    "commands to enable it, verify it and read its log; status says whether it is installed (and " +
    "current), enabled and running; uninstall removes the file mcpx wrote.",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: z.object({
    action: z.string().optional().describe("install, uninstall or status"),
    platform: z.enum(SERVICE_PLATFORMS).optional().describe(
      "write for this service manager: linux (systemd) or macos (launchd); default this machine's",
    ),
    dryRun: z.boolean().optional().describe("install: print the file instead of writing it"),
    now: z.boolean().optional().describe(
      "also run the manager's commands: enable and start after install, stop and disable " +
        "before uninstall (this machine's manager only)",
    ),
  }),
  output: ServiceOutput,
  cli: {
    command: "service",
    module: "./service/service.ts",
    usage: "mcpx service install [--platform linux|macos] [--dry-run] [--now] | uninstall " +
      "[--now] | status",
    summary: "run this configuration's daemon as a login service (systemd user unit, launchd)",
    args: [{
      field: "action",
      name: "install|uninstall|status",
      optional: true,
      complete: SERVICE_ACTIONS,
    }],
    flags: {
      platform: { field: "platform", type: "string", complete: SERVICE_PLATFORMS },
      "dry-run": { field: "dryRun", type: "boolean" },
      now: { field: "now", type: "boolean" },
    },
  },
});
