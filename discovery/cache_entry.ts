/**
 * Reading one server's schema-cache entry.
 *
 * @module
 */

import type { CachedServer } from "./types.ts";

/**
 * The entry's listing failure when it is the latest news about the server
 * (newer than its last successful listing), else undefined. A failure older
 * than a success is history, not state.
 */
export function lastFailure(entry: CachedServer | undefined): CachedServer["error"] {
  const error = entry?.error;
  return error && error.at >= (entry?.listedAt ?? "") ? error : undefined;
}
