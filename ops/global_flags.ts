/**
 * The flags every command takes, as plain data (the CLI's parser reads this
 * on every run, so it must not load zod). Each setting in config/settings.ts
 * is a flag too (`--<setting-flag>`); those are added by the parser from the
 * settings' declarations, not listed here.
 *
 * @module
 */

import type { FlagRow } from "./op.ts";

/**
 * Flags every command accepts (spec 000, "A command for every operation").
 * They fill no op's input field, so each carries its own help.
 */
export const GLOBAL_FLAGS: Readonly<Record<string, FlagRow>> = {
  json: { type: "boolean", help: "machine-readable JSON output", setting: "output.json" },
  config: {
    type: "string",
    help: "use this configuration file (else MCPX_CONFIG, else discovery)",
    complete: "file",
  },
  session: {
    type: "string",
    help: "session key for scoped servers (else MCPX_SESSION_ID)",
    complete: "session",
  },
  profile: {
    type: "string",
    multiple: true,
    help: "also see the servers of this profile (repeatable, or a,b)",
    setting: "profiles.active",
  },
  "skip-default": {
    type: "boolean",
    help: "with --profile: only that profile's servers, not the default set",
    setting: "profiles.skipDefault",
  },
  "all-profiles": {
    type: "boolean",
    help: "see every configured server, whatever its profiles",
    setting: "profiles.all",
  },
  tui: {
    type: "boolean",
    help: "open the full-screen browser (`mcpx tui`; also `mcpx` alone on a terminal)",
  },
  help: { type: "boolean", short: "h", help: "show help" },
  version: { type: "boolean", short: "V", help: "print the version" },
};
