/**
 * The settings of a configuration's hooks (`hooks.*`), declared here and
 * spread into the one settings table (config/settings.ts). The same
 * `hooks` section of a file also holds the hooks themselves, under
 * `hooks.observe` (config/hooks.ts), which is a declaration, not a setting.
 * Source: issue 28 ("bounded in time and concurrency, defaults 10 s and 4");
 * decision 0081.
 *
 * @module
 */

import type { SettingDeclaration } from "./setting_value.ts";

/** The section of a configuration file hooks live in: their settings and the hooks themselves. */
export const HOOKS_SECTION = "hooks";

/** The key of {@link HOOKS_SECTION} that holds the declared hooks (their phase), not a setting. */
export const HOOKS_BLOCK = "observe";

/** The hooks' settings, in the order `mcpx config` lists them. */
export const HOOK_SETTINGS = [
  {
    name: "hooks.timeout",
    type: "duration",
    default: "10s",
    minMs: 1,
    help:
      "A hook (declared in hooks.observe, or --hook-pre and the like on a run) still running after this long is killed, its whole process group; a hook's own timeout wins",
  },
  {
    name: "hooks.concurrency",
    type: "int",
    min: 1,
    default: "4",
    help:
      "Most declared hooks the daemon runs at once; more wait in a bounded queue, and past it are dropped and counted in the log",
  },
] as const satisfies readonly SettingDeclaration[];
