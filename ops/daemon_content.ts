/**
 * The options of the prompts and resources routes' handlers (ops/daemon_ops.ts),
 * from their bodies: the caller's limit and the pagination bounds it resolved,
 * each absent one the setting's default (engine/pagination.ts).
 *
 * @module
 */

import type { ContentOptions } from "../engine/content_options.ts";
import { DEFAULT_PAGE_LIMITS } from "../engine/pagination.ts";

/** The fields every prompts and resources route takes (ops/routes.ts `CONTENT_FIELDS`). */
export interface ContentFields {
  timeoutMs?: number;
  maxPages?: number;
  maxItems?: number;
  maxResponseBytes?: number;
}

/** The engine's options for a route body with {@link ContentFields}. */
export function contentOptions(fields: ContentFields, signal: AbortSignal): ContentOptions {
  return {
    signal,
    ...(fields.timeoutMs !== undefined ? { timeoutMs: fields.timeoutMs } : {}),
    limits: {
      maxPages: fields.maxPages ?? DEFAULT_PAGE_LIMITS.maxPages,
      maxItems: fields.maxItems ?? DEFAULT_PAGE_LIMITS.maxItems,
      maxResponseBytes: fields.maxResponseBytes ?? DEFAULT_PAGE_LIMITS.maxResponseBytes,
    },
  };
}
