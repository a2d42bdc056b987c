/**
 * The cooldown after failed starts: a pool that failed to start its server
 * waits before trying again, 1 s after the first failure, doubling per
 * failure in a row, at most 30 s (spec 000, "Honest failure reporting"); a
 * caller meanwhile gets the last failure with the time left.
 *
 * @module
 */

import type { ServerSpec } from "../config/types.ts";
import { ServerError } from "../core/errors.ts";
import type { StartFailure } from "./pool_types.ts";
import { authorizationRequired } from "./oauth_provider.ts";

/** Longest cooldown after repeated start failures, in ms (spec: capped at 30 s). */
export const MAX_BACKOFF_MS = 30_000;
/** First cooldown after a start failure, in ms; doubles per failure. */
export const FIRST_BACKOFF_MS = 1_000;

/**
 * The failure record after a start failed with `error`, following `previous`
 * (undefined after a success).
 * @param now Epoch ms.
 */
export function nextFailure(
  previous: StartFailure | undefined,
  error: ServerError,
  now = Date.now(),
): StartFailure {
  const count = (previous?.count ?? 0) + 1;
  const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (count - 1));
  return { count, retryAt: now + backoff, error };
}

/**
 * The error a caller gets while `failure` cools down: its message, how many
 * starts failed and when the next is tried; undefined once the cooldown is over.
 * @param now Epoch ms.
 */
export function coolingDown(
  spec: ServerSpec,
  failure: StartFailure | undefined,
  now = Date.now(),
): ServerError | undefined {
  if (!failure || now >= failure.retryAt) return undefined;
  // A server that wanted authorization is tried again at once: `mcpx auth` may have just run.
  if (authorizationRequired(failure.error)) return undefined;
  const seconds = Math.ceil((failure.retryAt - now) / 1000);
  return new ServerError(
    spec.name,
    `${failure.error.message}\n(failed to start ${failure.count} time${
      failure.count === 1 ? "" : "s"
    }; next attempt in ${seconds}s)`,
    {
      cause: failure.error,
      stderrTail: failure.error.stderrTail,
      bound: failure.error.bound,
    },
  );
}
