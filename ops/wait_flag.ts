/**
 * The `--wait[=duration]` flag of the discovery commands (`ls`, `search`,
 * `types`, `catalog`): how long a command waits for a server whose listing is
 * in progress. Without it, discovery answers at once from what is known and
 * shows such a server as starting, with the command that waits for it; a
 * listing the command itself starts (a server never listed) gets the
 * `discovery.wait` setting's short grace first (decision 0010). Its input
 * field is `WAIT_FIELDS` in ops/discovery_ops.ts (zod stays off the warm path).
 *
 * @module
 */

import type { CliFlag } from "./op.ts";
import { graceWait, type ListingWait } from "../engine/tool_listing.ts";
import { parseDuration } from "../config/duration.ts";
import { UsageError } from "../core/errors.ts";

/** What `--wait` alone stands for: as long as each start may take (its allowance). */
export const WAIT_TO_THE_END = "firstStartTimeout";

/** `--wait[=duration]`, declared once for every discovery command. */
export const WAIT_FLAGS: Readonly<Record<string, CliFlag>> = {
  wait: {
    field: "wait",
    type: "string",
    bare: WAIT_TO_THE_END,
    syntax: "duration",
  },
};

/**
 * The listing wait a discovery command asks the daemon for.
 *
 * @param wait The `--wait` value as typed: undefined (not given), {@link WAIT_TO_THE_END}, or a duration.
 * @param graceMs The `discovery.wait` setting, in ms.
 * @returns Undefined to wait until each listing ends (its start allowance bounds it);
 *   otherwise the listings' age to wait for, and the least wait for one in progress.
 * @throws {UsageError} When `wait` is neither a duration nor {@link WAIT_TO_THE_END}.
 * @example
 * ```ts
 * import { listingWaitOf } from "./wait_flag.ts";
 * if (listingWaitOf(undefined, 1000)?.joinedMs !== 0) throw new Error();
 * if (listingWaitOf("firstStartTimeout", 1000) !== undefined) throw new Error();
 * if (listingWaitOf("2s", 1000)?.startedMs !== 2000) throw new Error();
 * ```
 */
export function listingWaitOf(wait: string | undefined, graceMs: number): ListingWait | undefined {
  if (wait === undefined) return graceWait(graceMs);
  if (wait === WAIT_TO_THE_END) return undefined;
  try {
    const ms = parseDuration(wait);
    return { startedMs: ms, joinedMs: ms };
  } catch (error) {
    throw new UsageError(
      `--wait: ${(error as Error).message}; give --wait alone to wait as long as a start may ` +
        `take, or a duration joined with "=" (--wait=30s)`,
    );
  }
}

/**
 * The command that waits for the servers `command` showed as starting:
 * `command` with `--wait` added.
 *
 * @param command The command as run, e.g. `mcpx ls`, `mcpx search read file`.
 */
export function waitCommand(command: string): string {
  return `${command} --wait`;
}
