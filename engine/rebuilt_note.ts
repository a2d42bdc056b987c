/**
 * The note a call's result carries when its instance replaces the session's
 * earlier one, whose state is gone (docs/sessions.md): the CLI shows it.
 *
 * @module
 */

import type { Instance } from "./instance.ts";
import { sessionOf } from "./scope_key_format.ts";

/**
 * Why a session's instance was rebuilt: its earlier one was stopped by a
 * restart, a reap or an earlier daemon (`rebuilt`), or stopped to make room
 * in a full pool (`evicted`).
 */
export type RebuiltWhy = "rebuilt" | "evicted";

/** The shape of `_meta[REBUILT_META]`. */
export interface RebuiltNote {
  session?: string;
  server: string;
  key: string;
  why: RebuiltWhy;
  /** The pool's `max` instances, when an idle one was evicted to make room. */
  max?: number;
}

/**
 * The result with a note in its `_meta` that this call's instance replaces
 * the session's earlier one (whose state is gone), for the CLI to show:
 * `{ session, server, key, why }`, `why` being `rebuilt` (stopped by a
 * restart, a reap or an earlier daemon) or `evicted` (stopped to make room
 * in a full pool).
 */
export function withRebuiltNote(result: unknown, instance: Instance, why: RebuiltWhy): unknown {
  if (typeof result !== "object" || result === null) return result;
  const r = result as { _meta?: Record<string, unknown> };
  return {
    ...r,
    _meta: {
      ...r._meta,
      [REBUILT_META]: {
        session: sessionOf(instance.scopeKey),
        server: instance.spec.name,
        key: instance.key,
        why,
        ...(why === "evicted" ? { max: instance.spec.pool.max } : {}),
      } satisfies RebuiltNote,
    },
  };
}

/** The `_meta` key of a call result whose session's instance was rebuilt. */
export const REBUILT_META = "mcpx/session-rebuilt";
