/**
 * Reading one server's schema-cache entry.
 *
 * @module
 */

import type { CachedServer } from "./types.ts";

/**
 * The layout of the declarations discovery/typescript.ts writes into the
 * cache (`CachedTool.declaration`). Raised when that layout changes, so a
 * cache written in an older layout by the same mcpx version has its
 * declarations regenerated rather than shown as they were.
 */
export const DECLARATION_FORMAT = 2;

/**
 * The entry's listing failure when it is the latest news about the server
 * (newer than its last successful listing), else undefined. A failure older
 * than a success is history, not state.
 */
export function lastFailure(entry: CachedServer | undefined): CachedServer["error"] {
  const error = entry?.error;
  return error && error.at >= (entry?.listedAt ?? "") ? error : undefined;
}
