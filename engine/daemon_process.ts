/**
 * How a daemon process is started: the module and the `deno run` flags, shared
 * by the CLI that starts one on demand (cli/daemon_connect.ts) and the daemon
 * that starts its successor (`mcpx daemon upgrade`, daemon/upgrade.ts).
 *
 * @module
 */

import { SETTINGS, type SettingValue } from "../config/settings.ts";

/**
 * The V8 flags the daemon is started with: `--max-semi-space-size` in MiB,
 * V8's young-generation semi-space cap (measured: RSS of an idle daemon with
 * 3 servers 89 → 80 MiB, PSS 55 → 44).
 */
export const DAEMON_V8_FLAGS = "--max-semi-space-size=1";

/**
 * What `deno run` is given before the daemon's module, each for its resident
 * memory once idle (issue 11's daemon-memory row; decision 0057):
 *
 * - `--no-config`: the bundle holds its packages and names the one it keeps
 *   outside by its pinned specifier, so no import map or lock file is read
 *   (~1.3 MiB); deno.json's `unstable` list is given as flags instead
 *   (cli/daemon_bundle_test.ts holds the two equal).
 * - `--no-code-cache`: V8's code cache is a SQLite file Deno maps and keeps
 *   open; without it an idle daemon holds ~3 MiB less, and its start takes
 *   ~40 ms more (of some 1.5 s for a cold call with its first server).
 * - {@link DAEMON_V8_FLAGS}.
 */
export const DAEMON_RUN_FLAGS: readonly string[] = [
  "-A",
  "--no-config",
  "--unstable-no-legacy-abort",
  "--no-code-cache",
  `--v8-flags=${DAEMON_V8_FLAGS}`,
];

/**
 * The module the daemon runs, relative to the checkout: daemon/main.ts and every
 * local module and npm package it reaches, prebuilt into one (cli/bundle.ts
 * `DAEMON_BUNDLE`, decisions 0037 and 0057), run with {@link DAEMON_RUN_FLAGS}.
 */
export const DAEMON_MODULE = "daemon/daemon.bundle.js";

/**
 * The settings without the secret ones (`transport.bearerToken`): a command
 * line is readable by every user of the machine, and a daemon started on
 * demand never listens on TCP, so it has no use for a token (decision 0046).
 */
export function withoutSecrets(
  settings: Record<string, SettingValue>,
): Record<string, SettingValue> {
  const secret = new Set(SETTINGS.filter((s) => s.secret).map((s) => s.name));
  return Object.fromEntries(Object.entries(settings).filter(([name]) => !secret.has(name)));
}
